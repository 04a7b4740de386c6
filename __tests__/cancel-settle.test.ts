import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { takeCustody } from '../src/git/custody.js'
import { unregisterHeld } from '../src/git/custody-registry.js'
import { keepPublishRules } from '../src/gate/baseline/publish-rules.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { Ledger } from '../src/records/ledger.js'
import { settleKilledRun } from '../src/run/settle-killed-run.js'
import { type PushWip } from '../src/publish/github/wip.js'
import type { SessionInfo } from '../src/state/session.js'
import { emptyState } from '../src/state/schema.js'
import { stateLocation, writeStateFile, type CacheClient } from '../src/state/store.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

/** loopgate's git in `cwd`, through its own git directory when it holds the repository there. */

/** Records what would be cached (the library itself is exercised by the e2e tests). */
function recordingCache(): CacheClient & { saved: { key: string; text: string }[] } {
  const saved: { key: string; text: string }[] = []
  return {
    saved,
    isFeatureAvailable: () => true,
    restoreCache: async () => undefined,
    saveCache: async (paths, key) => {
      saved.push({ key, text: readFileSync(path.join(paths[0], 'state.json'), 'utf8') })
      return 1
    }
  }
}

describe('the post step settles a run whose main step was killed', () => {
  async function killedRun(opts: { progress?: string; logged?: string; rules?: boolean } = {}) {
    const repo = makeRepo(buggyProject())
    const base = sh(repo, ['rev-parse', 'HEAD']).trim()
    const temp = tempDir('loopgate-runner-')
    const runDir = path.join(temp, 'loopgate', 'loop-1-1')
    mkdirSync(runDir, { recursive: true })
    const ledger = new Ledger(path.join(runDir, 'ledger.jsonl'))
    ledger.begin(1, 2)
    ledger.charge({ iteration: 1, usd: 0.5, source: 'reported' })
    ledger.begin(2, 2)
    writeFileSync(path.join(repo, 'src', 'math.mjs'), 'export function add(a, b) {\n  return a + b // half done\n}\n')
    const progressFile = path.join(repo, '.loopgate', 'progress.md')
    mkdirSync(path.dirname(progressFile), { recursive: true })
    writeFileSync(progressFile, opts.progress ?? '- iteration 1 · …\n')
    if (opts.logged) writeFileSync(path.join(runDir, 'attempts.jsonl'), `${JSON.stringify({ type: 'stop', stopReason: opts.logged })}\n`)
    // Main held the repository when it was killed; the post step is a new process.
    await takeCustody(repo, runDir)
    // Main recorded the run's protected paths before its first call.
    if (opts.rules !== false)
      keepPublishRules(runDir, await BaseSnapshot.take(GitRepository.plain(repo), base, { paths: new ProtectedPaths(DEFAULT_PROTECTED_PATHS) }))
    unregisterHeld(repo)
    const location = stateLocation(temp, 'loop', null)
    writeStateFile(emptyState('loop'), location)
    const info: SessionInfo = {
      loopId: 'loop',
      pr: null,
      location,
      key: 'loopgate-loop-1-1',
      periodHours: 24,
      runId: '1-1',
      startedAt: new Date().toISOString(),
      baseCommit: base,
      restoreStatus: 'miss',
      tempDir: temp
    }
    return { repo, base, runDir, progressFile, info }
  }

  it('charges the open call its budget, writes `cancelled`, commits the edits, pushes the WIP through the given function, saves', async () => {
    const { repo, base, runDir, progressFile, info } = await killedRun()
    const origin = tempDir('loopgate-origin-')
    sh(origin, ['init', '-q', '--bare'])
    const pushed: Parameters<PushWip>[0][] = []
    const pushWip: PushWip = async (args) => {
      pushed.push(args)
      await args.repository.run(['push', '-q', origin, `${args.head}:refs/heads/${args.branch}`])
    }
    const cache = recordingCache()
    const result = await settleKilledRun({ info, runDir, workspace: repo, progressFileName: '.loopgate/progress.md', pushWip, cache })
    expect(result).toMatchObject({ stopReason: 'cancelled', settledUsd: 2, spentUsd: 2.5, iterations: 2, saved: true })
    expect(readFileSync(progressFile, 'utf8').trim().split('\n').at(-1)).toBe('stop-reason: cancelled')
    const head = sh(repo, ['rev-parse', 'HEAD']).trim()
    expect(head).not.toBe(base)
    // Pushed from loopgate's own git directory, never the workspace's `.git`.
    expect(pushed.map((p) => ({ dir: p.repository.dir, held: Boolean(p.repository.held), branch: p.branch, head: p.head }))).toEqual([
      { dir: repo, held: true, branch: 'loopgate/loop-wip', head }
    ])
    expect(sh(origin, ['rev-parse', 'refs/heads/loopgate/loop-wip']).trim()).toBe(head)
    expect(cache.saved).toHaveLength(1)
    const state = JSON.parse(cache.saved[0].text)
    expect(cache.saved[0].key).toBe('loopgate-loop-1-1')
    expect(state.periodLedger.map((c: { usd: number }) => c.usd)).toEqual([0.5, 2])
    expect(state.wip).toEqual({ branch: 'loopgate/loop-wip', head, base })
    expect(state.runs[0]).toMatchObject({ stopReason: 'cancelled', spentUsd: 2.5, iterations: 2 })
    const log = readFileSync(path.join(runDir, 'attempts.jsonl'), 'utf8')
    expect(log).toContain('"by":"post"')
  })

  it('pushes the commit of the last edits even when moving HEAD to it is slow', async () => {
    const { repo, base, runDir, info } = await killedRun()
    const bin = tempDir('loopgate-slow-git-')
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\nfor a in "$@"; do [ "$a" = update-ref ] && sleep 0.5 && break; done\nexec ${realGit} "$@"\n`, {
      mode: 0o755
    })
    const pushed: string[] = []
    const path0 = process.env.PATH
    process.env.PATH = `${bin}:${path0}`
    let result
    try {
      result = await settleKilledRun({
        info,
        runDir,
        workspace: repo,
        progressFileName: '.loopgate/progress.md',
        pushWip: async (args) => void pushed.push(args.head),
        cache: recordingCache()
      })
    } finally {
      process.env.PATH = path0
    }
    const head = sh(repo, ['rev-parse', 'HEAD']).trim()
    expect(head).not.toBe(base)
    expect(result.wipHead).toBe(head)
    expect(pushed).toEqual([head])
  })

  it('keeps the stop reason main already recorded in its attempt log, and a failing push does not stop the save', async () => {
    const { repo, runDir, progressFile, info } = await killedRun({ progress: '- iteration 1\nstop-reason: same-failure\n', logged: 'same-failure' })
    const cache = recordingCache()
    const result = await settleKilledRun({
      info,
      runDir,
      workspace: repo,
      progressFileName: '.loopgate/progress.md',
      cache,
      pushWip: async () => {
        throw new Error('remote rejected')
      }
    })
    expect(result.stopReason).toBe('same-failure')
    expect(
      readFileSync(progressFile, 'utf8')
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('stop-reason:'))
    ).toEqual(['stop-reason: same-failure'])
    expect(result.notes.join('\n')).toContain('could not push loopgate/loop-wip: remote rejected')
    expect(result.saved).toBe(true)
    expect(existsSync(path.join(runDir, 'ledger.jsonl'))).toBe(true)
  })

  it('commits only the publishable tree: a rewritten protected test and a new workflow stay out, the source edit goes in', async () => {
    const { repo, base, runDir, info } = await killedRun()
    writeFileSync(path.join(repo, 'test', 'run.mjs'), "console.log('✓ math adds two numbers')\n")
    mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true })
    writeFileSync(path.join(repo, '.github', 'workflows', 'evil.yml'), 'on: push\n')
    const result = await settleKilledRun({ info, runDir, workspace: repo, progressFileName: '.loopgate/progress.md', cache: recordingCache() })
    const head = sh(repo, ['rev-parse', 'HEAD']).trim()
    expect(result.wipHead).toBe(head)
    expect(sh(repo, ['show', `${head}:test/run.mjs`])).toBe(sh(repo, ['show', `${base}:test/run.mjs`]))
    expect(sh(repo, ['ls-tree', '-r', '--name-only', head])).not.toContain('.github')
    expect(sh(repo, ['show', `${head}:src/math.mjs`])).toContain('half done')
    expect(result.notes.join('\n')).toContain('protected paths put back to the base')
  })

  it('without the recorded protected paths nothing is committed', async () => {
    const { repo, base, runDir, info } = await killedRun({ rules: false })
    const result = await settleKilledRun({ info, runDir, workspace: repo, progressFileName: '.loopgate/progress.md', cache: recordingCache() })
    expect(sh(repo, ['rev-parse', 'HEAD']).trim()).toBe(base)
    expect(result.wipHead).toBeNull()
    expect(result.notes.join('\n')).toContain('nothing was committed')
  })
})
