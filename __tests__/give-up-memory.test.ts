import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { runSession, type SessionEnd } from '../src/session/flow.js'
import { earlierGiveUp, taskIdentity } from '../src/run/give-up-memory.js'
import { folderCache } from '../src/state/folder-cache.js'
import { openStateSession } from '../src/state/session.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'
import { GitRepository } from '../src/git/repository.js'

/**
 * A give-up is remembered in the loop's state with the task's identity: the same prompt, base and
 * protected tests are not tried again (nothing spent), and a change to any one of them runs.
 */
describe('the loop remembers a give-up until the task changes', () => {
  test('same task skipped before spending; new words, a new base or changed protected tests run', async () => {
    const calls = path.join(sharedTempDir('loopgate-give-up-calls-'), 'calls')
    writeFileSync(calls, '')
    chmodSync(calls, 0o666)
    const callCount = (): number => readFileSync(calls, 'utf8').split('\n').filter(Boolean).length
    const cacheRoot = tempDir('loopgate-folder-cache-')
    const cache = folderCache(cacheRoot)
    const ws = makeRepo(buggyProject())
    const agent = `echo call >> ${calls}; printf 'The vault key must be rotated first.\\n' > "$LOOPGATE_GIVE_UP_FILE"`
    let n = 0
    const run = async (prompt: string): Promise<SessionEnd & { kind: 'ran' }> => {
      const runId = `gu-${process.pid}-${++n}`
      const runnerTemp = tempDir('loopgate-runner-')
      const end = await runSession(settingsFor(ws, { 'agent-command': agent, 'gate-command': 'node test/run.mjs', 'loop-id': 'give-up-memory', prompt }), {
        env: process.env,
        runId,
        tempDir: runnerTemp,
        signal: new AbortController().signal,
        report: () => undefined,
        openState: (s) => openStateSession(s, { env: {}, tempDir: runnerTemp, runId, cache }),
        integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
        agentUser: workerAgentUser()
      })
      if (end.kind !== 'ran') throw new Error(`the run stopped early: ${end.message}`)
      expect(end.stateSaved?.saved).toBe(true)
      return end
    }

    const first = await run('Make add() add.')
    expect(first.report.stopReason).toBe('agent-gave-up')
    expect(callCount()).toBe(1)

    const again = await run('Make add() add.')
    expect(again.report.stopReason).toBe('nothing-to-do')
    expect(again.report.run).toBeNull()
    expect(callCount()).toBe(1)
    const note = again.report.notes.join('\n')
    expect(note).toContain(`the agent gave up on this same task in run gu-${process.pid}-1`)
    expect(note).toContain('"The vault key must be rotated first."')
    expect(note).toContain('/loopgate retry <what it is missing>')

    // New words (a retry's words are part of the prompt): runs, and is remembered in turn.
    const retried = await run('Make add() add.\n\nThe vault key was rotated; use the new one.')
    expect(retried.report.stopReason).toBe('agent-gave-up')
    expect(callCount()).toBe(2)
    expect((await run('Make add() add.\n\nThe vault key was rotated; use the new one.')).report.stopReason).toBe('nothing-to-do')
    expect(callCount()).toBe(2)

    // A new base commit runs.
    writeFileSync(path.join(ws, 'README.md'), 'math\n')
    sh(ws, ['add', '-A'])
    sh(ws, ['commit', '-q', '-m', 'readme'])
    expect((await run('Make add() add.\n\nThe vault key was rotated; use the new one.')).report.stopReason).toBe('agent-gave-up')
    expect(callCount()).toBe(3)
    expect((await run('Make add() add.\n\nThe vault key was rotated; use the new one.')).report.stopReason).toBe('nothing-to-do')
    expect(callCount()).toBe(3)

    // Changed protected tests run.
    writeFileSync(path.join(ws, 'test/run.mjs'), `${buggyProject()['test/run.mjs']}// the same check\n`)
    sh(ws, ['add', '-A'])
    sh(ws, ['commit', '-q', '-m', 'tests'])
    expect((await run('Make add() add.\n\nThe vault key was rotated; use the new one.')).report.stopReason).toBe('agent-gave-up')
    expect(callCount()).toBe(4)
  })
})

describe('the task identity', () => {
  test('differs in the protected tests alone (same prompt and base commit), not in an unprotected file', async () => {
    const ws = makeRepo(buggyProject())
    const base = sh(ws, ['rev-parse', 'HEAD']).trim()
    const settings = settingsFor(ws, { 'agent-command': 'true', 'gate-command': 'node test/run.mjs', prompt: 'Make add() add.' })
    const before = await taskIdentity(settings, GitRepository.plain(settings.workspace), base)
    const record = { ...before, reason: 'blocked', runId: 'r1', at: new Date().toISOString() }
    expect(earlierGiveUp(before, record, '/loopgate')?.stopReason).toBe('nothing-to-do')

    writeFileSync(path.join(ws, 'src/math.mjs'), 'export function add(a, b) {\n  return b - a\n}\n')
    sh(ws, ['commit', '-qam', 'code'])
    const codeOnly = await taskIdentity(settings, GitRepository.plain(settings.workspace), sh(ws, ['rev-parse', 'HEAD']).trim())
    expect(codeOnly.testsHash).toBe(before.testsHash)

    writeFileSync(path.join(ws, 'test/run.mjs'), `${buggyProject()['test/run.mjs']}// changed\n`)
    sh(ws, ['commit', '-qam', 'tests'])
    const testsChanged = await taskIdentity(settings, GitRepository.plain(settings.workspace), sh(ws, ['rev-parse', 'HEAD']).trim())
    expect(testsChanged.testsHash).not.toBe(before.testsHash)
    expect(earlierGiveUp({ ...before, testsHash: testsChanged.testsHash }, record, '/loopgate')).toBeNull()
    expect(earlierGiveUp({ ...before, promptHash: 'other' }, record, '/loopgate')).toBeNull()
    expect(earlierGiveUp(before, null, '/loopgate')).toBeNull()
  })
})
