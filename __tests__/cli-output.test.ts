import { execFileSync, spawnSync } from 'node:child_process'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 120_000
const isRoot = process.getuid?.() === 0

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` }
}

const run = (command: string, repo: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) =>
  cli(
    [
      'run',
      '--agent',
      'command',
      '--agent-command',
      command,
      '--prompt',
      'x',
      '--gate-command',
      'node test/run.mjs',
      '--max-iterations',
      '1',
      '--temp-dir',
      tempDir(),
      ...extra
    ],
    repo,
    env
  )

const count = (text: string, part: string): number => text.split(part).length - 1

describe('what the CLI prints', () => {
  it(
    'each message once, and the protected globs only with --verbose',
    () => {
      const repo = makeRepo(buggyProject())
      run('date +%N >> notes', repo)
      const second = run('date +%N >> notes', repo)
      expect(count(second.all, 'State restored from the cache entry')).toBe(1)
      expect(count(second.all, 'Resuming unfinished work')).toBe(1)
      expect(second.all).not.toContain('protected paths (resolved)')
      expect(second.all).not.toContain('**/*.test.*')
      const verbose = run('date +%N >> notes', repo, ['--verbose'])
      expect(count(verbose.all, 'protected paths (resolved)')).toBe(1)
      expect(verbose.stdout).toContain('` **/*.test.* `')
    },
    LONG
  )

  it(
    'a progress line at a steady beat while a call runs (LOOPGATE_PROGRESS_SECONDS shortens the 30 s)',
    () => {
      const r = run("sleep 3; sed -i 's/a - b/a + b/' src/math.mjs", makeRepo(buggyProject()), [], { LOOPGATE_PROGRESS_SECONDS: '1' })
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.stdout.split('\n').filter((l) => /^… still running, \d+s in/.test(l)).length).toBeGreaterThan(1)
    },
    LONG
  )

  it('an invalid option is said as an option, on stderr', () => {
    const r = run('true', makeRepo(buggyProject()), ['--call-budget-usd', 'lots'])
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('config-error: --call-budget-usd has the value "lots"')
    expect(r.all).not.toContain("Input '")
    expect(r.stdout).not.toContain('config-error:')
  })

  it(
    'a run that stopped on an error says why on stderr, in the CLI words',
    () => {
      const r = run('./does-not-exist.sh', makeRepo(buggyProject()))
      expect(r.status).toBe(exitCodeFor('config-error'))
      expect(r.stderr).toContain('./does-not-exist.sh: No such file or directory')
      expect(r.stderr).toMatch(/^config-error: /m)
      expect(r.stdout).not.toContain('does-not-exist')
      expect(r.stdout).toContain('stop-reason: config-error')
    },
    LONG
  )

  ;(isRoot ? it : it.skip)(
    'a named agent user without a home folder is a config-error that says how to create one',
    () => {
      const name = `loopgate-nohome-${process.pid % 100000}`
      execFileSync('useradd', ['--no-create-home', '--home-dir', `/home/${name}`, '--shell', '/bin/bash', name], { stdio: 'ignore' })
      try {
        const r = run('true', makeRepo(buggyProject()), [], { LOOPGATE_AGENT_USER: name })
        expect(r.status).toBe(exitCodeFor('config-error'))
        expect(r.stderr).toContain(`mkdir -p /home/${name} && chown ${name}: /home/${name}`)
        expect(r.all).not.toContain('ENOENT')
        expect(r.stdout).not.toMatch(/^iteration 1/m)
      } finally {
        execFileSync('userdel', [name], { stdio: 'ignore' })
      }
    },
    LONG
  )
})
