import { readFileSync } from 'node:fs'
import path from 'node:path'
import { runPost, type ActionRun } from './helpers/action-runner.js'
import { hangingSleep, killMarked, markedAlive } from './helpers/hanging-agent.js'
import { buggyProject, makeRepo, sharedTempDir, sh, tempDir } from './helpers/repo.js'
import { useCacheService, baseInputs, ledgerEntries, progressLines, readState, runWithCache, waitForFile } from './cache-server/scenario.js'

/** A scripted agent that records its pid, says it started, then hangs in the call. */
function hangingAgent(dir: string, before = ''): { command: string; marker: string; started: string } {
  const started = path.join(dir, 'started')
  const hang = hangingSleep(dir)
  return { command: `${before}touch ${started}; ${hang.exec}`, marker: hang.marker, started }
}

describe('cancellation loses nothing', () => {
  const svc = useCacheService()

  async function signalledRun(loopId: string, signal: NodeJS.Signals, before = '') {
    const repo = makeRepo(buggyProject())
    const runnerTemp = tempDir('loopgate-runner-')
    const agent = hangingAgent(sharedTempDir('loopgate-agent-'), before)
    let signalledAt = 0
    const inputs = { ...baseInputs(loopId, { 'call-budget-usd': '3', 'spend-ceiling-usd': '10' }), 'agent-command': agent.command }
    try {
      const run = await runWithCache(svc, {
        workspace: repo,
        runnerTemp,
        inputs,
        onSpawn: (child) => {
          void waitForFile(agent.started).then(() => {
            signalledAt = Date.now()
            child.kill(signal)
          })
        }
      })
      return { run, repo, runnerTemp, agent, inputs, signalledAt, closedAt: Date.now() }
    } finally {
      if (signal !== 'SIGKILL') killMarked(agent.marker)
    }
  }

  it('SIGTERM mid-call: the agent group is killed, the call charged its full budget, the note and the state saved', async () => {
    const { run, repo, runnerTemp, agent, signalledAt, closedAt } = await signalledRun('cancel-term', 'SIGTERM')
    expect(run.outputs['stop-reason']).toBe('cancelled')
    expect(run.stdout).toContain('received SIGTERM')
    expect(markedAlive(agent.marker)).toBe(false)
    const charge = ledgerEntries(run.outputs['log-file']).find((e) => e.type === 'charge')
    expect(charge).toMatchObject({ iteration: 1, usd: 3, source: 'worst-case' })
    expect(Date.parse(charge!.at) - signalledAt).toBeLessThan(5000)
    expect(closedAt - signalledAt).toBeLessThan(15_000)
    expect(run.outputs['spend-usd']).toBe('3.00')
    expect(progressLines(repo).at(-1)).toBe('stop-reason: cancelled')
    const log = readFileSync(run.outputs['log-file'], 'utf8')
    expect(log).toContain('"stopReason":"cancelled"')
    const state = readState(runnerTemp, 'cancel-term')
    expect(state.runs.at(-1)).toMatchObject({ stopReason: 'cancelled', spentUsd: 3, iterations: 1 })
    expect(state.periodLedger.map((c: { usd: number }) => c.usd)).toEqual([3])
    expect(svc.finalizedKeys().some((k) => k.startsWith('loopgate-cancel-term-'))).toBe(true)
    const post = await runPost(run, { workspace: repo, inputs: {} })
    expect(post.stdout).not.toContain('did not finish')
  })

  it('SIGINT after the agent reported a cost: the reported cost is charged, not the budget', async () => {
    const { run } = await signalledRun('cancel-int', 'SIGINT', `echo '{"cost_usd": 0.4}' > "$LOOPGATE_COST_FILE"; `)
    expect(run.outputs['stop-reason']).toBe('cancelled')
    const charge = ledgerEntries(run.outputs['log-file']).find((e) => e.type === 'charge')
    expect(charge).toMatchObject({ usd: 0.4, source: 'reported' })
  })

  it('SIGTERM during the gate ends the run as cancelled, with the call charged what it reported', async () => {
    const repo = makeRepo(buggyProject())
    const dir = sharedTempDir('loopgate-gate-')
    const started = path.join(dir, 'gate-started')
    const run = await runWithCache(svc, {
      workspace: repo,
      inputs: {
        ...baseInputs('cancel-gate', { 'same-failure-limit': '1' }),
        'agent-command': `echo '{"cost_usd": 0.2}' > "$LOOPGATE_COST_FILE"; echo x >> src/math.mjs`,
        // the baseline gate runs before the first call: only the gate of the agent's commit waits
        'gate-command': `if grep -q '^x$' src/math.mjs; then touch ${started}; sleep 30; fi; node test/run.mjs`
      },
      onSpawn: (child) => void waitForFile(started).then(() => child.kill('SIGTERM'))
    })
    expect(run.outputs['stop-reason']).toBe('cancelled')
    expect(run.outputs['spend-usd']).toBe('0.20')
    expect(progressLines(repo).at(-1)).toBe('stop-reason: cancelled')
  })

  it('main killed with SIGKILL mid-call: the post step charges the call, writes `cancelled`, keeps the work and saves the state', async () => {
    const { run, repo, runnerTemp, agent, inputs } = await signalledRun('cancel-kill', 'SIGKILL', `echo 'half done' > WORK.md; `)
    try {
      expect(run.signal).toBe('SIGKILL')
      expect(run.outputs['stop-reason']).toBeUndefined()
      expect(progressLines(repo).at(-1)).not.toMatch(/^stop-reason:/)
      const post: ActionRun = await runPost(run, { workspace: repo, inputs, env: svc.env() })
      expect(post.exitCode).toBe(0)
      expect(post.stdout).toContain('the main step did not finish')
      expect(post.outputs['stop-reason']).toBe('cancelled')
      expect(progressLines(repo).at(-1)).toBe('stop-reason: cancelled')
      const ledgerFile = path.join(run.state['run-dir'], 'ledger.jsonl')
      const charges = readFileSync(ledgerFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e.type === 'charge')
      expect(charges).toEqual([expect.objectContaining({ iteration: 1, usd: 3, source: 'worst-case', note: expect.stringContaining('post step') })])
      expect(sh(repo, ['status', '--porcelain', '--', 'WORK.md'])).toBe('')
      expect(sh(repo, ['show', 'HEAD:WORK.md'])).toBe('half done\n')
      const state = readState(runnerTemp, 'cancel-kill')
      expect(state.runs.at(-1)).toMatchObject({ stopReason: 'cancelled', spentUsd: 3, iterations: 1 })
      expect(state.periodLedger.map((c: { usd: number }) => c.usd)).toEqual([3])
      expect(state.wip).toMatchObject({ branch: 'loopgate/cancel-kill-wip', head: sh(repo, ['rev-parse', 'HEAD']).trim() })
      expect(svc.finalizedKeys().some((k) => k.startsWith('loopgate-cancel-kill-'))).toBe(true)
    } finally {
      killMarked(agent.marker)
    }
  })
})
