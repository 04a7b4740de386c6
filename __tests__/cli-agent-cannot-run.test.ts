import { readFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

const LONG = 120_000

const run = (command: string, repo: string) =>
  cli(['run', '--agent', 'command', '--agent-command', command, '--prompt', 'x', '--gate-command', 'node test/run.mjs', '--temp-dir', tempDir()], repo)

/** The ledger's charges of the run whose attempt log the output names. */
function charges(stdout: string): { usd: number; source: string }[] {
  const log = /attempt log: (.+)/.exec(stdout)?.[1] ?? ''
  const ledger = path.join(path.dirname(log), 'ledger.jsonl')
  return readFileSync(ledger, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type?: string; usd: number; source: string })
    .filter((e) => e.type === 'charge')
}

describe('a command agent the shell cannot run', () => {
  it.each([
    ['a missing script (exit 127)', './does-not-exist.sh', 127],
    ['an unknown program (exit 127)', 'no-such-agent-program --fix', 127],
    ['a script that is not executable (exit 126)', './fix.sh', 126]
  ])(
    '%s is a config-error after the first call, charged nothing, naming the command',
    (_name, command, code) => {
      const repo = makeRepo({ ...buggyProject(), 'fix.sh': "sed -i 's/a - b/a + b/' src/math.mjs\n" })
      const r = run(command, repo)
      expect(r.status).toBe(exitCodeFor('config-error'))
      expect(r.stdout).toContain('stop-reason: config-error')
      expect(r.all).toContain(command.split(' ')[0])
      expect(r.stdout).toContain(`iteration 1: config-error; the agent failed (exit ${code})`)
      expect(r.stdout).not.toMatch(/^iteration 2/m)
      expect(r.stdout).toContain('$0.00 in all; gate not run')
      expect(charges(r.stdout)).toEqual([expect.objectContaining({ usd: 0, source: 'not-started' })])
      expect(r.all).not.toMatch(/API key/)
    },
    LONG
  )

  it(
    'a command that ran and then failed on a later word is an ordinary failure, charged as usual',
    () => {
      const repo = makeRepo(buggyProject())
      const r = run('date +%N >> notes && ./missing-after.sh', repo)
      expect(r.stdout).not.toContain('stop-reason: config-error')
      expect(r.stdout).toContain('iteration 1: continue; the agent failed (exit 127); charged $4.00 (no cost reported)')
    },
    LONG
  )

  it(
    'an agent that fails after it ran says so on its iteration line',
    () => {
      const repo = makeRepo(buggyProject())
      const r = run("sed -i 's/a - b/a + b/' src/math.mjs; exit 3", repo)
      expect(r.stdout).toMatch(/^iteration 1: \S+; the agent failed \(exit 3\)/m)
    },
    LONG
  )
})
