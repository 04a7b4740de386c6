import { withCustody } from '../src/git/custody.js'
import { GitRepository } from '../src/git/repository.js'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { prepareResume } from '../src/state/resume.js'
import { emptyState, type LoopState } from '../src/state/schema.js'
import { restoreLoopState, stateLocation, writeStateFile, type CacheClient } from '../src/state/store.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'

function escalatedState(head: string, base: string, stopReason: LoopState['runs'][number]['stopReason'] = 'same-failure'): LoopState {
  return {
    ...emptyState('loop'),
    runs: [
      {
        runId: '1-1',
        startedAt: new Date().toISOString(),
        endedAt: new Date().toISOString(),
        outcome: 'escalated',
        stopReason,
        spentUsd: 1,
        iterations: 1,
        pr: null
      }
    ],
    lastFailure: { fingerprint: 'fp1', evidence: ['failing: math adds two numbers'] },
    wip: { branch: 'loopgate/loop-wip', head, base }
  }
}

/** origin with main and a WIP branch one commit ahead; a fresh clone of main. */
function setup() {
  const seed = makeRepo(buggyProject())
  const base = sh(seed, ['rev-parse', 'HEAD']).trim()
  const origin = tempDir('loopgate-origin-')
  sh(origin, ['init', '-q', '--bare', '-b', 'main'])
  sh(seed, ['push', '-q', origin, 'main'])
  sh(seed, ['checkout', '-q', '-b', 'wip'])
  writeFileSync(path.join(seed, 'NOTES.md'), 'step 1\n')
  sh(seed, ['add', '-A'])
  sh(seed, ['commit', '-q', '-m', 'wip'])
  const head = sh(seed, ['rev-parse', 'HEAD']).trim()
  sh(seed, ['push', '-q', origin, 'wip:refs/heads/loopgate/loop-wip'])
  sh(seed, ['checkout', '-q', 'main'])
  const clone = (): string => {
    const dir = tempDir('loopgate-clone-')
    sh(dir, ['clone', '-q', origin, '.'])
    return dir
  }
  return { seed, origin, base, head, clone }
}

describe('resume from the WIP branch', () => {
  it('merges a base that moved without conflicts, and carries the evidence and fingerprint', async () => {
    const { seed, origin, base, head, clone } = setup()
    writeFileSync(path.join(seed, 'OTHER.md'), 'unrelated\n')
    sh(seed, ['add', '-A'])
    sh(seed, ['commit', '-q', '-m', 'moved'])
    sh(seed, ['push', '-q', origin, 'main'])
    const work = clone()
    const moved = sh(work, ['rev-parse', 'HEAD']).trim()
    const plan = await prepareResume({ repository: GitRepository.plain(work), loopId: 'loop', state: escalatedState(head, base) })
    expect(plan.resumed).toBe(true)
    expect(plan.baseCommit).toBe(moved)
    expect(plan.seedFingerprint).toBe('fp1')
    expect(plan.initialEvidence).toContain('failing: math adds two numbers')
    expect(plan.notes.join('\n')).toMatch(/merged it into the WIP/)
    sh(work, ['merge-base', '--is-ancestor', head, 'HEAD'])
    sh(work, ['merge-base', '--is-ancestor', moved, 'HEAD'])
  })

  it('does not resume after a verified run, nor when the branch is gone', async () => {
    const { base, head, clone } = setup()
    const verified = await prepareResume({ repository: GitRepository.plain(clone()), loopId: 'loop', state: escalatedState(head, base, 'verified') })
    expect(verified.resumed).toBe(false)
    const gone = await prepareResume({
      repository: GitRepository.plain(clone()),
      loopId: 'loop',
      state: {
        ...escalatedState('c'.repeat(40), base),
        wip: { branch: 'loopgate/other-wip', head: 'c'.repeat(40), base }
      }
    })
    expect(gone.resumed).toBe(false)
    expect(gone.notes.join('\n')).toContain('was not found; starting fresh')
  })

  it('resumes through the repository it is handed: the held one, not the .git the agent can write', async () => {
    const { base, head, clone } = setup()
    const work = clone()
    // Another origin with a WIP branch of its own, named in the agent's copy of the git directory.
    const other = makeRepo(buggyProject())
    const elsewhere = tempDir('loopgate-elsewhere-')
    sh(elsewhere, ['init', '-q', '--bare', '-b', 'main'])
    writeFileSync(path.join(other, 'NOTES.md'), 'planted\n')
    sh(other, ['add', '-A'])
    sh(other, ['commit', '-q', '-m', 'planted'])
    sh(other, ['push', '-q', elsewhere, 'HEAD:refs/heads/loopgate/loop-wip'])
    const plan = await withCustody(work, tempDir('loopgate-run-'), async (custody) => {
      sh(work, ['remote', 'set-url', 'origin', elsewhere])
      const repository = GitRepository.held(custody)
      const resumed = await prepareResume({ repository, loopId: 'loop', state: escalatedState(head, base) })
      expect(await repository.head()).toBe(head)
      return resumed
    })
    expect(plan.resumed).toBe(true)
    expect(plan.notes.join('\n')).not.toMatch(/moved since the last run/)
  })

  it('starts fresh after a run that stopped for a reason this version does not know', async () => {
    const { base, head, clone } = setup()
    const plan = await prepareResume({ repository: GitRepository.plain(clone()), loopId: 'loop', state: escalatedState(head, base, 'gave-up') })
    expect(plan.resumed).toBe(false)
  })
})

describe('restore tells a miss from a failing service', () => {
  const location = () => stateLocation(tempDir('loopgate-runner-'), 'loop', null)
  it('a miss is a fresh state without warning', async () => {
    const client: CacheClient = { isFeatureAvailable: () => true, restoreCache: async () => undefined, saveCache: async () => 1 }
    expect((await restoreLoopState({ loopId: 'loop', pr: null, location: location(), primaryKey: 'k', cache: client })).status).toBe('miss')
  })
  it('the library reporting a failure (it returns a miss and prints a warning) is a failure', async () => {
    const client: CacheClient = {
      isFeatureAvailable: () => true,
      restoreCache: async () => {
        process.stdout.write('::warning::Failed to restore: Failed to GetCacheEntryDownloadURL: Received non-retryable error\n')
        return undefined
      },
      saveCache: async () => 1
    }
    const r = await restoreLoopState({ loopId: 'loop', pr: null, location: location(), primaryKey: 'k', cache: client })
    expect(r).toMatchObject({ status: 'failed', message: expect.stringContaining('GetCacheEntryDownloadURL') })
  })
  it('no cache service is unavailable', async () => {
    const client: CacheClient = { isFeatureAvailable: () => false, restoreCache: async () => 'x', saveCache: async () => 1 }
    expect((await restoreLoopState({ loopId: 'loop', pr: null, location: location(), primaryKey: 'k', cache: client })).status).toBe('unavailable')
  })
})

describe('the state directory', () => {
  it('holds only the state file when written: anything planted there is not cached', () => {
    const location = stateLocation(tempDir('loopgate-runner-'), 'loop', null)
    writeStateFile(emptyState('loop'), location)
    writeFileSync(path.join(location.dir, 'planted.sh'), 'echo owned\n')
    writeStateFile(emptyState('loop'), location)
    expect(readdirSync(location.dir)).toEqual(['state.json'])
    expect(existsSync(path.join(location.dir, 'planted.sh'))).toBe(false)
  })
})
