import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sharedTempDir } from './helpers/repo.js'
import { useCacheService, baseInputs, runWithCache, waitForFile } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_stateFakeToken00000000000000000001'

/** A same-repository pull_request payload for PR `n`. */
function prEvent(n: number): Record<string, unknown> {
  return {
    action: 'synchronize',
    number: n,
    pull_request: {
      number: n,
      html_url: `https://github.com/octo-org/octo-repo/pull/${n}`,
      head: { ref: `feature-${n}`, sha: 'f'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } },
      base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } }
    }
  }
}

/** Spends $1.50 per call; each call first waits (at most a minute) until the other run has started one. */
function overlappingAgent(sync: string, me: string, other: string): string {
  return (
    `echo '{"cost_usd": 1.5}' > "$LOOPGATE_COST_FILE"; touch ${sync}/${me}; ` +
    `i=0; while [ ! -e ${sync}/${other} ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done`
  )
}

describe('charges no run can lose, and one live run per loop', () => {
  const svc = useCacheService()
  let gh: GitHubServer
  beforeAll(async () => {
    // The repository's cache list, as the REST API answers it, holds what the cache service holds.
    gh = await startGitHubServer({
      token: TOKEN,
      cacheSource: () =>
        svc.entries
          .filter((e) => e.finalized)
          .map((e) => ({ key: e.key, ref: 'refs/heads/main', version: e.version, createdAt: new Date(e.createdAt).toISOString() }))
    })
  })
  afterAll(async () => {
    await gh.close()
  })
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ GITHUB_API_URL: gh.url, ...extra })

  it('two overlapping runs of one loop each spend $3 under period-ceiling-usd 5: the next run counts $6 and stops before spending', async () => {
    const loopId = 'shared-window'
    const inputs = baseInputs(loopId, {
      'call-budget-usd': '2',
      'spend-ceiling-usd': '10',
      'max-iterations': '2',
      'max-runs-per-pr': '5',
      'period-ceiling-usd': '5'
    })
    const sync = sharedTempDir('loopgate-sync-')
    // Two pull requests of one loop: the runs may overlap, and both count toward the loop's window.
    const [a, b] = await Promise.all(
      (['a', 'b'] as const).map((me, i) =>
        runWithCache(svc, {
          workspace: makeRepo(buggyProject()),
          eventName: 'pull_request',
          event: prEvent(7 + i),
          env: env({ LOOPGATE_AGENT_USER: `${workerAgentUser()}${me}` }),
          inputs: { ...inputs, 'agent-command': overlappingAgent(sync, me, me === 'a' ? 'b' : 'a') }
        })
      )
    )
    expect([a.outputs['spend-usd'], b.outputs['spend-usd']]).toEqual(['3.00', '3.00'])
    expect(svc.finalizedKeys().filter((k) => k.startsWith(`loopgate-${loopId}@charges-`))).toHaveLength(2)

    // The next run on the first pull request restores that PR's newest state, which holds only $3.
    const marker = path.join(sharedTempDir('loopgate-marker-'), 'called')
    const third = await runWithCache(svc, {
      workspace: makeRepo(buggyProject()),
      eventName: 'pull_request',
      event: prEvent(7),
      env: env(),
      inputs: { ...inputs, 'agent-command': `touch ${marker}` }
    })
    expect(third.outputs['stop-reason']).toBe('period-ceiling')
    expect(third.outputs['spend-usd']).toBe('0.00')
    expect(existsSync(marker)).toBe(false)
    expect(readFileSync(third.outputs['log-file'], 'utf8')).toContain('"spentBeforeUsd":6')
    expect(gh.violations).toEqual([])
  })

  it('a second live run of the loop stops before spending and names the first; once the first ends, the next run goes on', async () => {
    const loopId = 'leased-loop'
    const inputs = baseInputs(loopId, { 'max-iterations': '1' })
    const sync = sharedTempDir('loopgate-sync-')
    const started = path.join(sync, 'started')
    const release = path.join(sync, 'release')
    const firstId = String(700000 + Math.floor(Math.random() * 100000))
    const first = runWithCache(svc, {
      workspace: makeRepo(buggyProject()),
      env: env({ GITHUB_RUN_ID: firstId, LOOPGATE_AGENT_USER: `${workerAgentUser()}a` }),
      inputs: { ...inputs, 'agent-command': `touch ${started}; i=0; while [ ! -e ${release} ] && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done` }
    })
    await waitForFile(started, 120_000)
    const marker = path.join(sharedTempDir('loopgate-marker-'), 'called')
    const second = await runWithCache(svc, {
      workspace: makeRepo(buggyProject()),
      env: env({ LOOPGATE_AGENT_USER: `${workerAgentUser()}b` }),
      inputs: { ...inputs, 'agent-command': `touch ${marker}` }
    })
    writeFileSync(release, '')
    expect(second.outputs['stop-reason']).toBe('config-error')
    expect(second.outputs['spend-usd']).toBe('0.00')
    expect(existsSync(marker)).toBe(false)
    expect(second.stdout).toContain(
      `another run of the loop ${loopId} is live: run ${firstId}-1 (https://github.com/octo-org/octo-repo/actions/runs/${firstId}/attempts/1)`
    )
    expect(second.stdout).toContain('concurrency')

    expect((await first).outputs['stop-reason']).toBe('max-iterations')
    const next = await runWithCache(svc, { workspace: makeRepo(buggyProject()), env: env(), inputs: { ...inputs, 'agent-command': `touch ${marker}` } })
    expect(next.outputs['stop-reason']).toBe('max-iterations')
    expect(existsSync(marker)).toBe(true)
  })

  it('an unreadable window counts as full: without the cache list, a run with period-ceiling-usd spends nothing', async () => {
    const marker = path.join(sharedTempDir('loopgate-marker-'), 'called')
    // Last in this file: the token may not read the list from here on.
    gh.deny('actions/get-actions-cache-list')
    {
      const run = await runWithCache(svc, {
        workspace: makeRepo(buggyProject()),
        env: env(),
        inputs: { ...baseInputs('no-list', { 'period-ceiling-usd': '20' }), 'agent-command': `touch ${marker}` }
      })
      expect(run.outputs['stop-reason']).toBe('period-ceiling')
      expect(run.stdout).toMatch(/::warning::.*rolling window of period-ceiling-usd could not be read.*permissions: actions: read/)
      expect(existsSync(marker)).toBe(false)
    }
  })
})
