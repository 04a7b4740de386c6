import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const isRoot = process.getuid?.() === 0

function run(gateCommand: string, env: NodeJS.ProcessEnv = {}) {
  const args = [
    'run',
    '--agent',
    'command',
    '--agent-command',
    'true',
    '--prompt',
    'x',
    '--gate-command',
    gateCommand,
    '--max-iterations',
    '1',
    '--temp-dir',
    tempDir()
  ]
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: makeRepo(buggyProject()),
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A run that stops before the loop says why on stderr, once, in the CLI's words; its progress stays on stdout. */
describe('the CLI on a stop before the loop', () => {
  it('a passing gate with no test count: the count is what is missing, said on stderr', () => {
    const r = run('true')
    expect(r.status).toBe(exitCodeFor('gate-broken'))
    expect(r.stderr).toContain('no test count could be read from the gate on the base (exit 0)')
    expect(r.stderr).toContain("so loopgate can count the gate's tests on the base branch")
    expect(r.stderr).toMatch(/^gate-broken: The gate gave no result to compare with on the base itself \([^)]*its tests could not be counted\)/m)
    expect(r.stderr).not.toContain('could not run on the base')
    expect(r.stdout).not.toContain('no test count')
    expect(r.stdout).toMatch(/^protected gate: base /m)
    expect(r.stdout).toContain('stop-reason: gate-broken')
    expect(r.stderr.split('no test count could be read').length - 1).toBe(1)
  }, 120_000)

  ;(isRoot ? it : it.skip)(
    "a gate program only the runner's user can reach: said with options, on stderr",
    () => {
      const home = mkdtempSync('/root/loopgate-private-')
      chmodSync(home, 0o700)
      try {
        mkdirSync(path.join(home, 'bin'))
        writeFileSync(path.join(home, 'bin', 'private-tests'), '#!/bin/sh\nnode test/run.mjs\n', { mode: 0o755 })
        const r = run('private-tests', { PATH: `${path.join(home, 'bin')}:${process.env.PATH}` })
        expect(r.status).toBe(exitCodeFor('gate-broken'))
        expect(r.stderr).toContain('the --gate-command cannot start: its program `private-tests` is installed only where other users cannot reach it')
        expect(r.stderr).not.toMatch(/the gate-command|Input '/)
        expect(r.stderr).not.toMatch(/\((?:setup-node|actions\/)/)
        expect(r.stdout).not.toContain('cannot start')
      } finally {
        rmSync(home, { recursive: true, force: true })
      }
    },
    120_000
  )
})
