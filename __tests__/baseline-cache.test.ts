import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { runSession, type SessionEnd } from '../src/session/flow.js'
import { openStateSession } from '../src/state/session.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { memoryCache } from './helpers/memory-cache.js'
import { buggyProject, makeRepo, sharedTempDir, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'

describe('the baseline is cached in the loop state by what determines it', () => {
  test('a second run on the same tree, gate command and lockfiles does not run the baseline again', async () => {
    const counter = path.join(sharedTempDir('loopgate-gate-count-'), 'runs')
    writeFileSync(counter, '')
    chmodSync(counter, 0o666)
    const cache = memoryCache()
    const inputs = {
      'agent-command': "sed -i 's/a - b/a + b/' src/math.mjs",
      'gate-command': `echo run >> ${counter}; node test/run.mjs`,
      'loop-id': 'baseline-cache'
    }
    const gateRuns = (): number => readFileSync(counter, 'utf8').split('\n').filter(Boolean).length
    const run = async (n: number): Promise<SessionEnd> => {
      const ws = makeRepo(buggyProject())
      const settings = settingsFor(ws, inputs)
      const runnerTemp = tempDir('loopgate-runner-')
      return runSession(settings, {
        env: process.env,
        runId: `bc-${process.pid}-${n}`,
        tempDir: runnerTemp,
        signal: new AbortController().signal,
        report: () => undefined,
        openState: (s) => openStateSession(s, { env: {}, tempDir: runnerTemp, runId: `bc-${process.pid}-${n}`, cache }),
        integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
        agentUser: workerAgentUser()
      })
    }

    const first = await run(1)
    expect(first.kind === 'ran' && first.report.stopReason).toBe('verified')
    expect(gateRuns()).toBe(2) // the baseline, then the agent's commit
    const second = await run(2)
    expect(second.kind === 'ran' && second.report.stopReason).toBe('verified')
    expect(gateRuns()).toBe(3) // only the agent's commit
    expect(second.kind === 'ran' && second.report.notes.join('\n')).toContain('from an earlier run on the same tree')
  })

  describe('on a gate environment this loop ran on before, a new tree’s baseline runs alongside the first call', () => {
    // Each line: what happened and when (ms). The gate's baseline run is the first `gate` pair.
    const setup = () => {
      const shared = sharedTempDir('loopgate-overlap-')
      const events = path.join(shared, 'events')
      writeFileSync(events, '')
      chmodSync(events, 0o666)
      const flag = path.join(shared, 'broken')
      const cache = memoryCache()
      const inputs = {
        'agent-command': `echo "agent $(date +%s%3N)" >> ${events}; sed -i 's/a - b/a + b/' src/math.mjs`,
        'gate-command': `echo "gate-start $(date +%s%3N)" >> ${events}; if [ -e ${flag} ]; then for i in $(seq 100); do grep -q agent-start ${events} && break; sleep 0.1; done; no-such-test-runner; exit 127; fi; sleep 1; echo "gate-end $(date +%s%3N)" >> ${events}; node test/run.mjs`,
        'loop-id': 'baseline-overlap'
      }
      const run = async (n: number, extra: Record<string, string> = {}, overrides: Record<string, string> = {}): Promise<SessionEnd> => {
        writeFileSync(events, '')
        const ws = makeRepo({ ...buggyProject(), ...extra })
        const runnerTemp = tempDir('loopgate-runner-')
        return runSession(settingsFor(ws, { ...inputs, ...overrides }), {
          env: process.env,
          runId: `bo-${process.pid}-${n}`,
          tempDir: runnerTemp,
          signal: new AbortController().signal,
          report: () => undefined,
          openState: (s) => openStateSession(s, { env: {}, tempDir: runnerTemp, runId: `bo-${process.pid}-${n}`, cache }),
          integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
          agentUser: workerAgentUser()
        })
      }
      const timeline = (): { what: string; at: number }[] =>
        readFileSync(events, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => ({ what: l.split(' ')[0], at: Number(l.split(' ')[1]) }))
      return { run, timeline, flag, events }
    }

    test('the first run checks the gate before the first call; a later run on a new tree does not wait for it', async () => {
      const { run, timeline } = setup()
      const first = await run(1)
      expect(first.kind === 'ran' && first.report.stopReason).toBe('verified')
      const t1 = timeline()
      const agent1 = t1.find((e) => e.what === 'agent')!.at
      expect(agent1).toBeGreaterThanOrEqual(t1.find((e) => e.what === 'gate-end')!.at)

      const second = await run(2, { 'docs/new.md': 'a tree the loop has not seen\n' })
      expect(second.kind === 'ran' && second.report.stopReason).toBe('verified')
      const t2 = timeline()
      // The agent started before the baseline (the first gate run) ended; the gate ran twice.
      expect(t2.find((e) => e.what === 'agent')!.at).toBeLessThan(t2.find((e) => e.what === 'gate-end')!.at)
      expect(t2.filter((e) => e.what === 'gate-end')).toHaveLength(2)
      expect(second.kind === 'ran' && second.report.notes.join('\n')).toContain('baseline run alongside the first agent call')
      const log = second.kind === 'ran' ? readFileSync(second.report.logFile, 'utf8') : ''
      expect(log).toContain('"type":"baseline"')
    })

    test('a gate that breaks on a known environment ends the call in flight and stops the run as gate-broken', async () => {
      const { run, flag, events, timeline } = setup()
      expect((await run(3)).kind).toBe('ran')
      writeFileSync(flag, '')
      // An agent still working long after the baseline has failed: its call is ended, not waited for.
      const slowAgent = `echo "agent-start $(date +%s%3N)" >> ${events}; sleep 60; echo "agent-end $(date +%s%3N)" >> ${events}`
      const broken = await run(4, { 'docs/other.md': 'another new tree\n' }, { 'agent-command': slowAgent })
      expect(timeline().map((e) => e.what)).toContain('agent-start')
      expect(timeline().map((e) => e.what)).not.toContain('agent-end')
      expect(broken.kind === 'ran' && broken.report.stopReason).toBe('gate-broken')
      expect(broken.kind === 'ran' && broken.report.run?.iterations).toHaveLength(1)
      expect(broken.kind === 'ran' && broken.report.run?.lastVerdict?.reason).toMatch(/no-such-test-runner|could not start|not found/)
    })
  })
})
