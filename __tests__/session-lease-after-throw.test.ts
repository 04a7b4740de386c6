/**
 * A run that fails with an error of loopgate's own outside the loop still saves its charges entry,
 * which ends its lease on the loop: the next run of the same loop is admitted, not held as
 * `config-error` until the failed run's deadline. Through the real state session over a folder.
 */
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { runSession, type SessionPorts } from '../src/session/flow.js'
import { folderCache, folderCacheLister } from '../src/state/folder-cache.js'
import { openStateSession } from '../src/state/session.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'

test('a run that throws before its loop releases its lease: the next run of the loop runs', async () => {
  const cacheRoot = tempDir('loopgate-folder-cache-')
  const cache = folderCache(cacheRoot)
  const ws = makeRepo(buggyProject())
  const settings = settingsFor(ws, { 'agent-command': 'true', 'gate-command': 'node test/run.mjs', 'loop-id': 'lease-after-throw', 'max-iterations': '1' })
  const ports = (runId: string, integrate: SessionPorts['integrate']): SessionPorts => {
    const runnerTemp = tempDir('loopgate-runner-')
    return {
      env: process.env,
      runId,
      tempDir: runnerTemp,
      signal: new AbortController().signal,
      report: () => undefined,
      openState: (s) => openStateSession(s, { env: {}, tempDir: runnerTemp, runId, cache, listCaches: folderCacheLister(cacheRoot) }),
      integrate,
      agentUser: workerAgentUser()
    }
  }
  const failing = runSession(
    settings,
    ports(`lease-first-${process.pid}`, async () => {
      throw new Error('the publisher could not be reached')
    })
  )
  await expect(failing).rejects.toThrow('the publisher could not be reached')

  const next = await runSession(
    settings,
    ports(`lease-next-${process.pid}`, async (s) => ({ settings: s, publisher: new DryRunPublisher() }))
  )

  if (next.kind !== 'ran') throw new Error(`the next run was held: ${next.stopReason}: ${next.message}`)
  expect(next.report.stopReason).toBe('max-iterations')
}, 120_000)
