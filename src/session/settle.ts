import { reclaimWorkspace } from '../isolation/agent-user.js'
import type { SessionInfo } from '../state/session.js'
import { settleKilledRun, type SettleResult } from '../run/settle-killed-run.js'
import { type PushWip } from '../publish/github/wip.js'
import { configErrorFrom } from './config-error-text.js'
import type { SessionMemo } from './flow.js'

/** What the post step plugs into the end of a session: what the main step remembered, its inputs, its WIP push. */
interface SettlePorts {
  /** The main step finished its session: there is nothing to settle. */
  mainFinished: boolean
  /** A value the main step remembered (SessionPorts.remember); '' when it did not get that far. */
  recall: (name: SessionMemo) => string
  /** The workspace when the main step did not remember one. */
  defaultWorkspace: string
  /** Loopgate's progress file (relative to the workspace) and features file, kept out of the last commit. */
  progressFile: string
  featuresFile?: string
  /** Pushes the WIP branch; without it the WIP commit stays local to the runner. */
  pushWip?: PushWip
  report: (line: string) => void
  warn: (line: string) => void
}

type SettleEnd =
  { kind: 'finished' } | { kind: 'not-started' } | { kind: 'settled'; result: SettleResult } | { kind: 'stopped'; stopReason: 'config-error'; message: string }

/**
 * The end of a session whose main step was killed, from loopgate's own records: the session's
 * state info as the main step remembered it → the workspace back from the agent's user → the
 * repository's custody resumed, the open call charged, the last edits committed and pushed → the
 * run recorded and the state saved. Errors map to stop reasons as in runSession.
 */
export async function settleSession(ports: SettlePorts): Promise<SettleEnd> {
  if (ports.mainFinished) return { kind: 'finished' }
  ports.warn('loopgate: the main step did not finish; settling the run (charges, progress note, state).')
  const sessionText = ports.recall('state-session')
  const runDir = ports.recall('run-dir')
  if (!sessionText || !runDir) {
    ports.warn('loopgate: the main step ended before the loop started; nothing to settle.')
    return { kind: 'not-started' }
  }
  const info = JSON.parse(sessionText) as SessionInfo
  const workspace = ports.recall('workspace') || ports.defaultWorkspace
  // A killed main left the agent user's processes running and the workspace in its hands.
  const ownerText = ports.recall('workspace-owner')
  for (const note of await reclaimWorkspace(workspace, ownerText, runDir)) ports.report(`loopgate: ${note}`)
  const [uid, gid] = /^\d+:\d+$/.test(ownerText) ? ownerText.split(':').map(Number) : []
  let result: SettleResult
  try {
    result = await settleKilledRun({
      info,
      runDir,
      workspace,
      owner: uid === undefined ? undefined : { uid, gid },
      progressFileName: ports.progressFile,
      featuresFile: ports.featuresFile,
      pushWip: ports.pushWip
    })
  } catch (err) {
    const message = configErrorFrom(err, workspace)
    if (message === null) throw err
    return { kind: 'stopped', stopReason: 'config-error', message }
  }
  for (const note of result.notes) ports.report(`loopgate: ${note}`)
  return { kind: 'settled', result }
}
