import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { emptyState } from '../src/state/schema.js'
import { restoreLoopState, saveLoopState, stateKey, stateLocation } from '../src/state/store.js'
import { LocalCacheService } from './cache-server/server.js'
import { tempDir } from './helpers/repo.js'

/**
 * Two runs of one loop on runners that keep their files in different places (RUNNER_TEMP and the
 * workspace differ), through the real @actions/cache library and the local cache service.
 */
describe('the loop state follows the loop from runner to runner', () => {
  const svc = new LocalCacheService()
  const saved: Record<string, string | undefined> = {}
  const ENV = ['ACTIONS_CACHE_SERVICE_V2', 'ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'GITHUB_WORKSPACE', 'RUNNER_TEMP', 'GITHUB_SERVER_URL']

  beforeAll(async () => {
    await svc.start()
    for (const name of ENV) saved[name] = process.env[name]
    Object.assign(process.env, svc.env(), { GITHUB_SERVER_URL: 'https://github.com' })
  }, 60_000)
  afterAll(async () => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name]
      else process.env[name] = saved[name]
    }
    await svc.stop()
  })

  /** A runner: its own temp folder and a workspace at another depth. */
  function runner(depth: number): { runnerTemp: string; workspace: string } {
    const runnerTemp = tempDir('loopgate-runner-')
    const workspace = path.join(tempDir('loopgate-work-'), ...Array.from({ length: depth }, (_, i) => `d${i}`), 'repo')
    mkdirSync(workspace, { recursive: true })
    return { runnerTemp, workspace }
  }

  it('a state saved on one runner is restored on another, with the period ledger intact', async () => {
    const loopId = 'roaming-loop'
    const cwd = process.cwd()

    const first = runner(1)
    process.env.RUNNER_TEMP = first.runnerTemp
    process.env.GITHUB_WORKSPACE = first.workspace
    const firstLocation = stateLocation(first.runnerTemp, loopId, null)
    const state = { ...emptyState(loopId), periodLedger: [{ at: new Date().toISOString(), usd: 3, runId: '100-1' }] }
    const result = await saveLoopState(state, { location: firstLocation, key: stateKey(loopId, '100-1', null) })
    expect(result).toEqual({ saved: true })
    expect(svc.finalizedKeys()).toContain(`loopgate-${loopId}-100-1`)

    const second = runner(4)
    process.env.RUNNER_TEMP = second.runnerTemp
    process.env.GITHUB_WORKSPACE = second.workspace
    const secondLocation = stateLocation(second.runnerTemp, loopId, null)
    const restored = await restoreLoopState({ loopId, pr: null, location: secondLocation, primaryKey: stateKey(loopId, '200-1', null) })
    expect(restored).toMatchObject({ status: 'restored', key: `loopgate-${loopId}-100-1` })
    expect(restored.status === 'restored' && restored.state.periodLedger).toEqual(state.periodLedger)
    // The cache calls leave the process where it was.
    expect(process.cwd()).toBe(cwd)
    expect(process.env.GITHUB_WORKSPACE).toBe(second.workspace)
  }, 60_000)

  it('the version sent to the cache service is the same whatever the runner paths', async () => {
    const loopId = 'versioned-loop'
    const versions = new Set<string>()
    for (const [i, depth] of [2, 5].entries()) {
      const r = runner(depth)
      process.env.RUNNER_TEMP = r.runnerTemp
      process.env.GITHUB_WORKSPACE = r.workspace
      await saveLoopState(emptyState(loopId), { location: stateLocation(r.runnerTemp, loopId, null), key: stateKey(loopId, `${i}-1`, null) })
    }
    for (const e of svc.entries.filter((e) => e.key.startsWith(`loopgate-${loopId}-`))) versions.add(e.version)
    expect(versions.size).toBe(1)
  }, 60_000)
})
