import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { returnCustody, takeCustody, userConfigOf, withCustody } from '../src/git/custody.js'
import { heldRepositoryFor } from '../src/git/custody-registry.js'
import { GitRepository } from '../src/git/repository.js'
import { ConfigError } from '../src/errors.js'
import { stashCredentials } from '../src/git/persisted-credentials.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

/** loopgate's git in `cwd`, through its own git directory when it holds the repository there. */
const git = (args: string[], opts: { cwd: string }) => GitRepository.lookup(opts.cwd).run(args)

function runDirIn(): string {
  return tempDir('loopgate-custody-')
}

describe('loopgate holds the workspace repository for the run', () => {
  test('the agent gets a copy without the user config; loopgate keeps the credential, and the repository returns without it', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const dir = tempDir()
    const included = path.join(dir, 'git-credentials-x.config')
    writeFileSync(included, '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic INCLUDED_SECRET\n', { mode: 0o644 })
    sh(ws, ['config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic DIRECT_SECRET'])
    sh(ws, ['config', `includeIf.gitdir:${ws}/.git.path`, included])
    sh(ws, ['remote', 'add', 'origin', 'https://someone:SECRET_IN_URL@example.com/o/r.git'])
    const before = readFileSync(path.join(ws, '.git/config'), 'utf8')
    const runDir = runDirIn()
    const custody = await takeCustody(ws, runDir)

    const agentConfig = readFileSync(path.join(ws, '.git/config'), 'utf8')
    expect(agentConfig).not.toMatch(/SECRET|extraheader|includeIf/)
    expect(agentConfig).toContain('url = "https://example.com/o/r.git"')
    expect(sh(ws, ['log', '--format=%s'])).toContain('initial')
    const stash = await stashCredentials(userConfigOf(custody), path.join(runDir, 'credentials.json'))
    expect(stash.auth).toEqual([
      'http.https://github.com/.extraheader=AUTHORIZATION: basic DIRECT_SECRET',
      'http.https://github.com/.extraheader=AUTHORIZATION: basic INCLUDED_SECRET'
    ])
    expect(lstatSync(included).mode & 0o777).toBe(0o600)
    expect(lstatSync(path.join(runDir, 'credentials.json')).mode & 0o777).toBe(0o600)

    await returnCustody(custody)
    const after = readFileSync(path.join(ws, '.git/config'), 'utf8')
    expect(after).not.toMatch(/DIRECT_SECRET|INCLUDED_SECRET|extraheader|includeIf/)
    // Everything else of the user's configuration comes back as it was.
    expect(after).toContain('url = https://someone:SECRET_IN_URL@example.com/o/r.git')
    expect(before).toContain('url = https://someone:SECRET_IN_URL@example.com/o/r.git')
    expect(existsSync(path.join(runDir, 'git'))).toBe(false)
    expect(heldRepositoryFor(ws)).toBeUndefined()
  })

  test("loopgate's commits land in its own git directory and come back with it; the agent's commits do not", async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const base = sh(ws, ['rev-parse', 'HEAD']).trim()
    const runDir = runDirIn()
    const ours = await withCustody(ws, runDir, async () => {
      writeFileSync(path.join(ws, 'a.txt'), 'b')
      // The agent commits in its copy and plants a config that would run as loopgate's git.
      sh(ws, ['-c', 'user.name=x', '-c', 'user.email=x@y', 'commit', '-qam', 'agent commit'])
      sh(ws, ['config', 'core.worktree', '/'])
      await git(['add', '-A'], { cwd: ws })
      await git(['commit', '-q', '-m', 'loopgate: iteration 1'], { cwd: ws })
      return (await git(['rev-parse', 'HEAD'], { cwd: ws })).stdout.trim()
    })
    expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(ours)
    expect(sh(ws, ['rev-parse', 'HEAD~1']).trim()).toBe(base)
    expect(sh(ws, ['log', '--format=%s'])).not.toContain('agent commit')
    expect(readFileSync(path.join(ws, '.git/config'), 'utf8')).not.toContain('worktree')
  })

  test("loopgate's index is split while it holds the repository and goes back whole", async () => {
    const ws = makeRepo({ 'a.txt': 'a', 'b.txt': 'b' })
    const runDir = runDirIn()
    const splitWhileHeld = await withCustody(ws, runDir, async (custody) => {
      writeFileSync(path.join(ws, 'a.txt'), 'changed')
      await git(['add', '-A'], { cwd: ws })
      return readdirSync(custody.gitDir).filter((n) => n.startsWith('sharedindex.'))
    })
    expect(splitWhileHeld).toHaveLength(1)
    expect(readdirSync(path.join(ws, '.git')).filter((n) => n.startsWith('sharedindex.'))).toEqual([])
    // A whole index has no "link" extension; a split one names its shared index there.
    expect(readFileSync(path.join(ws, '.git', 'index')).includes(Buffer.from('link'))).toBe(false)
    expect(sh(ws, ['diff', '--cached', '--name-only']).trim()).toBe('a.txt')
  })

  test('a workspace without a .git directory is a config-error naming working-directory', async () => {
    const notRepo = tempDir('loopgate-norepo-')
    await expect(takeCustody(notRepo, runDirIn())).rejects.toBeInstanceOf(ConfigError)
    await expect(takeCustody(notRepo, runDirIn())).rejects.toThrow(/working-directory/)
  })
})
