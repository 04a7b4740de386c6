import { mkdirSync } from 'node:fs'
import path from 'node:path'
import * as cache from '@actions/cache'
import { writeFileSync } from 'node:fs'
import { readSettings } from '../src/inputs/read-settings.js'
import { missNote } from '../src/state/cache-list.js'
import { emptyState } from '../src/state/schema.js'
import { openStateSession } from '../src/state/session.js'
import { restoreLoopState, saveLoopState, stateKey, stateLocation } from '../src/state/store.js'
import { LocalCacheService } from './cache-server/server.js'
import { startGitHubServer } from './github-server/server.js'
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

  it('a restore that misses while the repository’s cache list holds the loop’s entries says so', async () => {
    const loopId = 'moved-loop'
    const token = 'ghs_stateRunnersToken000000000000000001'
    const gh = await startGitHubServer({ token })
    try {
      // An entry saved the way older versions did: under its absolute path, so another version.
      const old = runner(1)
      const oldDir = stateLocation(old.runnerTemp, loopId, null).dir
      mkdirSync(oldDir, { recursive: true })
      writeFileSync(path.join(oldDir, 'state.json'), JSON.stringify(emptyState(loopId)))
      process.env.GITHUB_WORKSPACE = old.workspace
      expect(await cache.saveCache([oldDir], `loopgate-${loopId}-300-1`)).toBeGreaterThan(0)
      gh.caches.push(...svc.entries.filter((e) => e.finalized).map((e) => ({ key: e.key, ref: 'refs/heads/main', version: e.version })))

      const now = runner(2)
      process.env.GITHUB_WORKSPACE = now.workspace
      const inputs: Record<string, string> = {
        agent: 'command',
        'agent-command': 'true',
        prompt: 'x',
        'gate-command': 'true',
        'loop-id': loopId,
        'period-ceiling-usd': '5',
        'github-token': token
      }
      const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: now.workspace })
      const env = { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'octo-org/octo-repo', GITHUB_API_URL: gh.url }
      const opened = await openStateSession(settings, { env, tempDir: now.runnerTemp, runId: '400-1' })
      expect(opened.kind).toBe('ready')
      const notes = opened.kind === 'ready' ? opened.session.notes : []
      expect(notes.join('\n')).toContain(
        `the restore missed, yet the repository's cache list holds 1 entry under \`loopgate-${loopId}-\` (newest \`loopgate-${loopId}-300-1\``
      )
      expect(notes.join('\n')).toContain("the window of period-ceiling-usd is read from every run's charges entries")
      expect(gh.requests.find((r) => r.operationId === 'actions/get-actions-cache-list')?.path).toContain(`key=loopgate-${loopId}-`)
      expect(gh.violations).toEqual([])

      // Nothing under the prefix, or a list the token may not read: no note.
      expect(await missNote(async () => [], 'loopgate-x-', true)).toBeNull()
      expect(await missNote(async () => Promise.reject(new Error('403')), 'loopgate-x-', true)).toBeNull()
    } finally {
      await gh.close()
    }
  }, 60_000)
})
