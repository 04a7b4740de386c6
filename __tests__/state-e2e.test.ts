import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { buggyProject, makeRepo, sharedTempDir, sh, tempDir } from './helpers/repo.js'
import { useCacheService, baseInputs, FIX, plantState, progressLines, readState, runWithCache } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

describe('loop state in actions/cache, through the bundled action', () => {
  const svc = useCacheService()
  // The repository's cache list (where the rolling window's records are read) holds what the service holds.
  let gh: GitHubServer
  beforeAll(async () => {
    gh = await startGitHubServer({
      token: 'ghs_stateFakeToken00000000000000000001',
      cacheSource: () => svc.entries.filter((e) => e.finalized).map((e) => ({ key: e.key, ref: 'refs/heads/main', version: e.version }))
    })
  })
  afterAll(async () => {
    await gh.close()
  })

  it('a first run misses and saves; the second restores it and the rolling ceiling stops it before spending', async () => {
    const repo = makeRepo(buggyProject())
    const runnerTemp = tempDir('loopgate-runner-')
    const loopId = 'nightly-deps'
    const inputs = baseInputs(loopId, {
      'call-budget-usd': '2',
      'spend-ceiling-usd': '10',
      'max-iterations': '2',
      'period-ceiling-usd': '4.5',
      'period-hours': '24'
    })
    const first = await runWithCache(svc, {
      workspace: repo,
      runnerTemp,
      env: { GITHUB_API_URL: gh.url },
      inputs: { ...inputs, 'agent-command': `echo '{"cost_usd": 1.5}' > "$LOOPGATE_COST_FILE"` }
    })
    expect(first.outputs['stop-reason']).toBe('max-iterations')
    expect(first.outputs['spend-usd']).toBe('3.00')
    expect(first.stdout).not.toContain('Cache hit')
    expect(svc.finalizedKeys().filter((k) => k.startsWith(`loopgate-${loopId}-`))).toEqual([
      `loopgate-${loopId}-${first.state['state-session'] ? JSON.parse(first.state['state-session']).runId : '?'}`
    ])
    const saved = readState(runnerTemp, loopId)
    expect(saved.version).toBe(1)
    expect(saved.periodLedger.map((c: { usd: number }) => c.usd)).toEqual([1.5, 1.5])
    expect(saved.runs).toHaveLength(1)
    expect(saved.runs[0]).toMatchObject({ stopReason: 'max-iterations', spentUsd: 3, iterations: 2 })

    const marker = path.join(tempDir('loopgate-marker-'), 'called')
    const second = await runWithCache(svc, {
      workspace: repo,
      runnerTemp,
      env: { GITHUB_API_URL: gh.url },
      inputs: { ...inputs, 'agent-command': `touch ${marker}` }
    })
    expect(second.stdout).toMatch(/Cache hit for restore-key: loopgate-nightly-deps-\d+-1/)
    expect(second.outputs['stop-reason']).toBe('period-ceiling')
    expect(second.outputs['spend-usd']).toBe('0.00')
    expect(second.outputs.iterations).toBe('0')
    expect(existsSync(marker)).toBe(false)
    expect(progressLines(repo).at(-1)).toBe('stop-reason: period-ceiling')
    const log = readFileSync(second.outputs['log-file'], 'utf8')
    expect(log).toContain('"spentBeforeUsd":3')
    expect(svc.finalizedKeys().filter((k) => k.startsWith(`loopgate-${loopId}-`))).toHaveLength(2)
    const after = readState(runnerTemp, loopId)
    expect(after.runs.map((r: { stopReason: string }) => r.stopReason)).toEqual(['max-iterations', 'period-ceiling'])
    expect(after.periodLedger).toHaveLength(2)
  })

  it('stops as state-corrupt before spending when the cached state is unreadable, keeping the blob in the log', async () => {
    const repo = makeRepo(buggyProject())
    const runnerTemp = tempDir('loopgate-runner-')
    const loopId = 'corrupt-loop'
    const bad = '{"version":1,"loopId":"corrupt-loop","periodLedger":"all spent"'
    await plantState(svc, { runnerTemp, workspace: repo, loopId, key: `loopgate-${loopId}-1-1`, text: bad })
    const marker = path.join(tempDir('loopgate-marker-'), 'called')
    const run = await runWithCache(svc, {
      workspace: repo,
      runnerTemp,
      inputs: { ...baseInputs(loopId), 'agent-command': `touch ${marker}` }
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.outputs['stop-reason']).toBe('state-corrupt')
    expect(run.outputs['spend-usd']).toBe('0.00')
    expect(existsSync(marker)).toBe(false)
    const stop = readFileSync(run.outputs['log-file'], 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.type === 'stop')
    expect(stop).toMatchObject({ stopReason: 'state-corrupt', stateKey: `loopgate-${loopId}-1-1`, stateBlob: bad })
    expect(progressLines(repo).at(-1)).toBe('stop-reason: state-corrupt')
    const post = await runWithCache(svc, { workspace: repo, runnerTemp, inputs: baseInputs(loopId), state: run.state })
    expect(post.stdout).not.toContain('did not finish')
  })

  it('stops as state-corrupt when the cached archive itself will not unpack', async () => {
    const repo = makeRepo(buggyProject())
    const runnerTemp = tempDir('loopgate-runner-')
    const loopId = 'damaged-archive'
    await plantState(svc, { runnerTemp, workspace: repo, loopId, key: `loopgate-${loopId}-1-1`, text: '{}' })
    await svc.overwrite(
      svc.entries.find((e) => e.key === `loopgate-${loopId}-1-1`)!,
      Buffer.from('this is not a zstd tar archive')
    )
    const marker = path.join(tempDir('loopgate-marker-'), 'called')
    const run = await runWithCache(svc, { workspace: repo, runnerTemp, inputs: { ...baseInputs(loopId), 'agent-command': `touch ${marker}` } })
    expect(run.outputs['stop-reason']).toBe('state-corrupt')
    expect(run.stdout).toContain(`the cache entry loopgate-${loopId}-1-1 could not be unpacked`)
    expect(existsSync(marker)).toBe(false)
  })

  it('goes on with a warning when the cache service answers 500: the window is still read from the cache list', async () => {
    const repo = makeRepo(buggyProject())
    svc.failWith = 500
    try {
      const run = await runWithCache(svc, {
        workspace: repo,
        env: { GITHUB_API_URL: gh.url },
        inputs: { ...baseInputs('flaky-cache', { 'period-ceiling-usd': '20' }), 'agent-command': FIX }
      })
      expect(run.exitCode).toBe(0)
      expect(run.outputs['stop-reason']).toBe('verified')
      expect(run.stdout).toMatch(/::warning::.*loop state could not be restored/)
      expect(run.stdout).toMatch(/::warning::.*loop state was not saved/)
      expect(run.stdout).toMatch(/::warning::.*lease on the loop was not saved/)
      expect(run.summary).toContain('The window of the last 24 h holds $0.00')
    } finally {
      svc.failWith = null
    }
  }, 200_000)

  it('stops a pull request loop at max-runs-per-pr before spending (review-capacity)', async () => {
    const repo = makeRepo(buggyProject())
    const runnerTemp = tempDir('loopgate-runner-')
    const inputs = baseInputs('pr-fixer', { 'max-runs-per-pr': '1', 'max-iterations': '1' })
    // A same-repository pull_request payload (the GitHub integration reads head, base and action).
    const event = {
      action: 'synchronize',
      number: 7,
      pull_request: {
        number: 7,
        html_url: 'https://github.com/octo-org/octo-repo/pull/7',
        head: { ref: 'feature', sha: 'f'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } },
        base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } }
      }
    }
    const first = await runWithCache(svc, {
      workspace: repo,
      runnerTemp,
      eventName: 'pull_request',
      event,
      inputs: { ...inputs, 'agent-command': 'true' }
    })
    expect(first.outputs['stop-reason']).toBe('max-iterations')
    expect(svc.finalizedKeys().some((k) => /^loopgate-pr-fixer@pr-7-\d+-1$/.test(k))).toBe(true)
    const marker = path.join(tempDir('loopgate-marker-'), 'called')
    const second = await runWithCache(svc, {
      workspace: repo,
      runnerTemp,
      eventName: 'pull_request',
      event,
      inputs: { ...inputs, 'agent-command': `touch ${marker}` }
    })
    expect(second.outputs['stop-reason']).toBe('review-capacity')
    expect(second.outputs.outcome).toBe('skipped')
    expect(second.outputs['spend-usd']).toBe('0.00')
    expect(existsSync(marker)).toBe(false)
    expect(second.stdout).toContain('max-runs-per-pr (1)')
  })

  describe('resume from the WIP branch', () => {
    /** origin (bare) with main; a clone to work in; a first run that escalates with partial work. */
    async function escalatedRun(loopId: string) {
      const seed = makeRepo(buggyProject())
      const origin = tempDir('loopgate-origin-')
      sh(origin, ['init', '-q', '--bare', '-b', 'main'])
      sh(seed, ['push', '-q', origin, 'main'])
      const clone = (): string => {
        const dir = tempDir('loopgate-clone-')
        sh(dir, ['clone', '-q', origin, '.'])
        return dir
      }
      const runnerTemp = tempDir('loopgate-runner-')
      const first = clone()
      const run = await runWithCache(svc, {
        workspace: first,
        runnerTemp,
        inputs: { ...baseInputs(loopId, { 'max-iterations': '1' }), 'agent-command': `echo 'step 1 done' > NOTES.md` }
      })
      expect(run.outputs['stop-reason']).toBe('max-iterations')
      const state = readState(runnerTemp, loopId)
      expect(state.wip).toMatchObject({ branch: `loopgate/${loopId}-wip` })
      // What the publisher does on escalation: push the work to the WIP branch.
      sh(first, ['push', '-q', 'origin', `HEAD:refs/heads/loopgate/${loopId}-wip`])
      return { origin, seed, runnerTemp, clone, state }
    }

    it('starts the next run from the WIP branch with the last evidence in its first prompt', async () => {
      const loopId = 'resume-loop'
      const { runnerTemp, clone, state } = await escalatedRun(loopId)
      const work = clone()
      const promptCopy = path.join(sharedTempDir('loopgate-prompt-'), 'prompt.md')
      const run = await runWithCache(svc, {
        workspace: work,
        runnerTemp,
        inputs: { ...baseInputs(loopId), 'agent-command': `cp "$LOOPGATE_PROMPT_FILE" ${promptCopy}; ${FIX}` }
      })
      expect(run.outputs['stop-reason']).toBe('verified')
      const prompt = readFileSync(promptCopy, 'utf8')
      expect(prompt).toContain('resumes the work of an earlier run')
      expect(prompt).toContain('math adds two numbers')
      expect(readFileSync(path.join(work, 'NOTES.md'), 'utf8')).toBe('step 1 done\n')
      expect(sh(work, ['merge-base', '--is-ancestor', state.wip.head, 'HEAD'])).toBe('')
      expect(run.summary).toMatch(
        new RegExp(`Resuming unfinished work: the last run stopped with max-iterations, and this run starts from its work on loopgate/${loopId}-wip`)
      )
      expect(run.summary).toContain('To start from the base instead: set the input `resume: false`')
      expect(readState(runnerTemp, loopId).wip).toBeNull()
    })

    it('starts from the base with resume: false, and says so', async () => {
      const loopId = 'fresh-loop'
      const { runnerTemp, clone } = await escalatedRun(loopId)
      const work = clone()
      const run = await runWithCache(svc, {
        workspace: work,
        runnerTemp,
        inputs: { ...baseInputs(loopId), resume: 'false', 'agent-command': FIX }
      })
      expect(run.outputs['stop-reason']).toBe('verified')
      expect(existsSync(path.join(work, 'NOTES.md'))).toBe(false)
      expect(run.summary).toContain(
        `Starting from the base, as asked: the unfinished work of the last run (it stopped with max-iterations; on loopgate/${loopId}-wip) is not resumed.`
      )
    })

    it('starts fresh, and says why, when the base moved in a way that conflicts', async () => {
      const loopId = 'moved-base'
      const { runnerTemp, clone, seed, origin } = await escalatedRun(loopId)
      sh(seed, ['pull', '-q', origin, 'main'])
      const { writeFileSync } = await import('node:fs')
      writeFileSync(path.join(seed, 'NOTES.md'), 'a person wrote this\n')
      sh(seed, ['add', '-A'])
      sh(seed, ['commit', '-q', '-m', 'notes by a person'])
      sh(seed, ['push', '-q', origin, 'main'])
      const work = clone()
      const promptCopy = path.join(sharedTempDir('loopgate-prompt-'), 'prompt.md')
      const run = await runWithCache(svc, {
        workspace: work,
        runnerTemp,
        inputs: { ...baseInputs(loopId), 'agent-command': `cp "$LOOPGATE_PROMPT_FILE" ${promptCopy}; ${FIX}` }
      })
      expect(run.outputs['stop-reason']).toBe('verified')
      expect(readFileSync(path.join(work, 'NOTES.md'), 'utf8')).toBe('a person wrote this\n')
      expect(readFileSync(promptCopy, 'utf8')).not.toContain('resumes the work of an earlier run')
      expect(run.summary).toMatch(
        /Not resumed: the base moved \([0-9a-f]{12} → [0-9a-f]{12}\) and conflicts with the WIP branch loopgate\/moved-base-wip in NOTES\.md/
      )
    })
  })
})
