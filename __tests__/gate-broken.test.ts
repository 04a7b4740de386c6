/** A gate that cannot run on the base stops the run before any spend, naming the input to change. */
import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { runCli } from '../src/cli/run-cli.js'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { attackProject, runAttack } from './helpers/gate-fixture.js'
import { makeRepo, tempDir } from './helpers/repo.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
/** The agent leaves a mark outside the workspace when it is called at all. */
const MARKED = (temp: string): string => `touch ${path.join(temp, 'agent-was-called')}\n${FIX}`

function logEntries(file: string): Record<string, any>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)
}

async function brokenRun(inputs: Record<string, string>, isolation: 'weak' | 'auto' = 'weak') {
  const marker = tempDir('loopgate-marker-')
  const r = await runAttack({ isolation, inputs, script: MARKED(marker) })
  const entries = logEntries(r.report.logFile)
  return {
    ...r,
    entries,
    called: existsSync(path.join(marker, 'agent-was-called')),
    ledger: existsSync(r.report.ledgerFile) ? readFileSync(r.report.ledgerFile, 'utf8') : ''
  }
}

test('a gate command that is not found stops with gate-broken before any call, naming gate-command', async () => {
  const r = await brokenRun({ 'gate-command': './no-such-test-runner --run' })
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.report.outcome).toBe('stopped')
  expect(r.report.run).toBeNull()
  expect(r.called).toBe(false)
  expect(r.ledger).not.toContain('call-start')
  const why = r.report.notes.join('\n')
  expect(why).toContain('the gate command could not start on the base (exit 127: command not found)')
  expect(why).toContain('no-such-test-runner')
  expect(why).toContain('`gate-command`')
  const baseline = r.entries.find((e) => e.type === 'baseline')
  expect(baseline).toMatchObject({ passed: false, broken: { inputs: ['gate-command', 'gate-setup'] } })
  expect(r.entries.find((e) => e.type === 'stop')).toMatchObject({ stopReason: 'gate-broken', spentUsd: 0 })
  expect(readFileSync(r.report.progressFile, 'utf8')).toContain('stop-reason: gate-broken')
})

test('a failing gate-setup on the base stops with gate-broken naming gate-setup', async () => {
  const r = await brokenRun({ 'gate-setup': 'echo "npm error code ENOTCACHED" >&2; exit 3' })
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.called).toBe(false)
  const why = r.report.notes.join('\n')
  expect(why).toContain('gate-setup failed on the base (exit 3): npm error code ENOTCACHED')
  expect(why).toContain('Change `gate-setup`')
})

test('with the separate agent user: the workspace goes back to its owner when the gate is broken', async () => {
  const r = await brokenRun({ 'gate-setup': 'exit 3' }, 'auto')
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.called).toBe(false)
  expect(statSync(path.join(r.ws, 'src', 'math.mjs')).uid).toBe(process.getuid?.())
})

test('a gate that times out on the base stops with gate-broken naming gate-timeout-minutes', async () => {
  const r = await brokenRun({ 'gate-command': 'sleep 30', 'gate-timeout-minutes': '0.05' })
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.called).toBe(false)
  expect(r.report.notes.join('\n')).toContain('the gate timed out on the base after 3 s. Change `gate-timeout-minutes`')
})

test('a runner that crashes before any test runs (a missing package) stops with gate-broken', async () => {
  const r = await brokenRun({ 'gate-command': 'node --input-type=module -e "await import(\'vitest/node\')"' })
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.called).toBe(false)
  expect(r.report.notes.join('\n')).toMatch(/the test runner could not start on the base \(exit 1, no test ran\): .*Cannot find package 'vitest'/)
})

test('a baseline whose tests fail is the task, not a broken gate: the loop runs and the log holds the baseline', async () => {
  const r = await brokenRun({})
  expect(r.called).toBe(true)
  expect(r.report.stopReason).toBe('verified')
  const baseline = r.entries.find((e) => e.type === 'baseline')
  expect(baseline).toMatchObject({ passed: false, broken: null, tests: 2, reason: 'exit 1' })
  expect(r.entries.findIndex((e) => e.type === 'baseline')).toBeLessThan(r.entries.findIndex((e) => e.type === 'iteration'))
})

describe('the CLI prints the run notes', () => {
  async function cli(args: string[]) {
    const ws = makeRepo(attackProject())
    let out = ''
    const status = await runCli(['run', '--agent', 'command', '--prompt', 'fix add', '--workspace', ws, '--temp-dir', tempDir(), ...args], {
      out: (t) => (out += t),
      err: (t) => (out += t),
      isTTY: false,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOOPGATE_ISOLATION: 'weak' }
    })
    return { status, out }
  }

  test('the baseline, the protected-file count and weak isolation', async () => {
    const r = await cli(['--agent-command', 'true', '--gate-command', 'node -e "console.log(\'✓ ok\')"', '--max-iterations', '1'])
    expect(r.out).toMatch(
      /^note: protected gate: base [0-9a-f]{7} \((?:current branch|base-ref) main\), \d+ protected file\(s\); baseline .*\(passing(; [^)]*)?\)$/m
    )
    expect(r.out).toMatch(/^note: isolation is weak: /m)
  })

  test('a broken gate: what failed and which input to change, exit 24', async () => {
    const r = await cli(['--agent-command', 'true', '--gate-command', './no-such-test-runner'])
    expect(r.status).toBe(exitCodeFor('gate-broken'))
    expect(r.status).toBe(24)
    expect(r.out).toMatch(/^(?:note: )?the gate command could not start on the base \(exit 127: command not found\).*Change --gate-command/m)
    expect(r.out).toContain('stop-reason: gate-broken')
  })
})
