import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

// The package as someone else gets it: `npm pack`, then `npx ./loopgate-<v>.tgz run …` in another
// repository, offline (every library is bundled into dist/, so the package installs nothing).

const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
let tarball: string

/** A fresh HOME and npm cache: nothing from this machine's npm setup helps. */
function npmEnv(): NodeJS.ProcessEnv {
  const home = tempDir('loopgate-npm-home-')
  return {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_cache: path.join(home, 'cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false'
  }
}

beforeAll(() => {
  const out = tempDir('loopgate-pack-')
  const r = spawnSync('npm', ['pack', '--pack-destination', out, '--json'], { cwd: ROOT, encoding: 'utf8', env: npmEnv() })
  expect(r.status).toBe(0)
  const [packed] = JSON.parse(r.stdout) as { filename: string; files: { path: string }[] }[]
  expect(packed.filename).toBe(`loopgate-${version}.tgz`)
  const files = packed.files.map((f) => f.path)
  expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'dist/cli/index.js', 'dist/index.js', 'action.yml', 'package.json', 'README.md']))
  expect(files.filter((f) => /^(src|__tests__|node_modules|scripts|bench)\//.test(f))).toEqual([])
  tarball = path.join(out, packed.filename)
})

function npx(repo: string, args: string[]) {
  const spec = `./${path.relative(repo, tarball)}`
  const r = spawnSync('npx', ['--offline', '--yes', spec, ...args], { cwd: repo, encoding: 'utf8', env: npmEnv(), timeout: 120_000 })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const AGENT = ['--agent', 'command', '--prompt', 'fix add', '--gate-command', 'node test/run.mjs']

test('npx ./loopgate-<v>.tgz run in another repository: verified, exit 0, the would-be PR body written', () => {
  const repo = makeRepo(buggyProject())
  const r = npx(repo, ['run', ...AGENT, '--agent-command', "sed -i 's/a - b/a + b/' src/math.mjs", '--temp-dir', tempDir()])
  expect(r.stderr).not.toMatch(/ENOTCACHED|ERR!/)
  expect(r.stdout).toContain('stop-reason: verified')
  expect(r.status).toBe(0)
  const body = /would publish: (.+)/.exec(r.stdout)?.[1] ?? ''
  expect(existsSync(body)).toBe(true)
})

test('the packed CLI exits with the status of its stop reason', () => {
  const repo = makeRepo(buggyProject())
  const r = npx(repo, ['run', ...AGENT, '--agent-command', 'date +%N >> notes', '--temp-dir', tempDir()])
  expect(r.stdout).toContain('stop-reason: same-failure')
  expect(r.status).toBe(exitCodeFor('same-failure'))
})
