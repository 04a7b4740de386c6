/**
 * The gate's write layer is mounted by root: the programs that do it (unshare, mount, setpriv)
 * come from the system's own folders, never from a PATH the run's environment sets, where a folder
 * could hold a file of the agent's by that name. Needs root (overlayfs in a mount namespace).
 */
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { inMountNamespace, overlayUnavailable, withMounts } from '../src/gate/mount-namespace.js'
import { tempDir } from './helpers/repo.js'

const root = process.getuid?.() === 0

;(root ? describe : describe.skip)('the write layer mounted as root', () => {
  test('runs the system programs even where PATH names a folder of look-alikes first', () => {
    const dir = tempDir()
    expect(overlayUnavailable(path.join(dir, 'scratch'))).toBeNull()
    const mount = { target: path.join(dir, 'lower'), upper: path.join(dir, 'upper'), work: path.join(dir, 'work') }
    for (const d of Object.values(mount)) mkdirSync(d)
    writeFileSync(path.join(mount.target, 'kept.txt'), 'base\n')
    chmodSync(path.join(mount.target, 'kept.txt'), 0o666)
    const planted = path.join(dir, 'planted')
    const marker = path.join(dir, 'ran-as-root')
    mkdirSync(planted)
    for (const name of ['unshare', 'mount', 'setpriv']) {
      writeFileSync(path.join(planted, name), `#!/bin/sh\necho ${name} >> ${marker}\nexit 0\n`)
      chmodSync(path.join(planted, name), 0o755)
    }
    const start = inMountNamespace('echo written > kept.txt', mount, { uid: 65534, gid: 65534 })
    chmodSync(dir, 0o755)
    chmodSync(mount.upper, 0o777)
    const r = spawnSync(start.command, start.args, { encoding: 'utf8', env: { PATH: `${planted}:/usr/bin:/bin` } })
    expect(existsSync(marker)).toBe(false)
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    // The run wrote into its layer; the checkout below it is as the base left it.
    expect(readFileSync(path.join(mount.upper, 'kept.txt'), 'utf8')).toBe('written\n')
    expect(readFileSync(path.join(mount.target, 'kept.txt'), 'utf8')).toBe('base\n')
  })

  test("a cache mount in the gate user's HOME is refused where a folder on its way was swapped for a symlink", () => {
    const dir = realpathSync(tempDir())
    const template = path.join(dir, 'template')
    const home = path.join(dir, 'home')
    const target = path.join(home, '.npm', '_cacache')
    const upper = path.join(dir, 'upper')
    for (const d of [template, target, upper, path.join(dir, 'work')]) mkdirSync(d, { recursive: true })
    writeFileSync(path.join(template, 'planted'), 'from the cache\n')
    // A folder elsewhere with the same last name: the user moves its own `.npm` away and links that folder's parent in its place.
    const elsewhere = path.join(dir, 'system', '_cacache')
    mkdirSync(elsewhere, { recursive: true })
    writeFileSync(path.join(elsewhere, 'tool'), 'the system\n')
    renameSync(path.join(home, '.npm'), path.join(home, '.npm-moved'))
    symlinkSync(path.join(dir, 'system'), path.join(home, '.npm'))
    const mount = { target, lower: template, upper, work: path.join(dir, 'work'), canonical: true }
    const start = withMounts(`cat ${path.join(elsewhere, 'planted')}`, { mounts: [mount], cwd: dir })
    const r = spawnSync(start.command, start.args, { encoding: 'utf8' })
    expect(r.stdout).not.toContain('from the cache')
    expect(r.stderr).toContain('is not where it was made')
    expect(r.status).toBe(125)
  })
})
