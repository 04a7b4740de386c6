import { lstatSync } from 'node:fs'
import path from 'node:path'
import { withCustody } from '../git/custody.js'
import { GitRepository } from '../git/repository.js'
import type { Settings } from '../settings.js'
import type { StopReason } from '../loop/stop-reasons.js'
import type { IterationRecord } from '../loop/engine-types.js'
import type { LoopHistory } from '../state/schema.js'
import type { Publisher } from '../publish/publisher-types.js'
import { progressLine } from '../loop/iteration-record.js'
import { loopHistory } from '../state/record-run.js'
import { executeRun } from '../run/execute-run.js'
import { prepareRunDir, type RunContext, type RunReport } from '../run/context.js'
import type { OpenResult, StateSession } from '../state/session.js'
import { configErrorFrom } from './config-error-text.js'
import { heartbeatMs, startHeartbeat } from './heartbeat.js'

/** What an entry point plugs into the session: where it runs, its state store and its publisher. */
export interface SessionPorts {
  env: NodeJS.ProcessEnv
  runId: string
  tempDir: string
  signal: AbortSignal
  report: (line: string) => void
  warn?: (line: string) => void
  /** Where the explanation of a stop before the loop goes (an error); `report` when not set. */
  explain?: (line: string) => void
  onIteration?: (record: IterationRecord) => void
  /** Restores the loop's cross-run state; absent where there is none (the local CLI). */
  openState?: (settings: Settings) => Promise<OpenResult>
  /** The publisher for this run, and the settings adjusted to its event (the loop's own issues and PRs, its earlier runs). */
  integrate: (settings: Settings, recorded: number[], history?: LoopHistory) => Promise<{ settings: Settings; publisher: Publisher }>
  /** Called as soon as the post step would need a value to finish a killed run. */
  remember?: (name: SessionMemo, value: string) => void
  isolation?: RunContext['isolation']
  agentUser?: string
  /** How often a progress line is printed while the run goes on (30 s unless set). */
  heartbeatMs?: number
}

export type SessionMemo = 'run-dir' | 'workspace' | 'workspace-owner' | 'state-session'

export type SessionEnd =
  | { kind: 'ran'; settings: Settings; report: RunReport; session?: StateSession; stateSaved?: { saved: boolean; message?: string } }
  | { kind: 'stopped'; settings: Settings; stopReason: StopReason; message: string; log?: Record<string, unknown> }

/**
 * One run, the same for the action, the CLI and every test through them: preflight → restore the
 * state → hold the repository → resume → the loop → publish → save the state. Each entry point only
 * reads its inputs, wires these ports and writes its outputs or exit status.
 */
export async function runSession(settings: Settings, ports: SessionPorts): Promise<SessionEnd> {
  const remember = ports.remember ?? (() => undefined)
  const runDir = prepareRunDir(ports.tempDir, settings.loopId, ports.runId)
  remember('run-dir', runDir)
  remember('workspace', settings.workspace)
  const owner = ownerOf(settings.workspace)
  if (owner) remember('workspace-owner', owner)

  const restored = await restoreState(settings, ports, remember)
  if (restored.stop) return restored.stop
  const session = restored.session

  const held: HeldSettings = { settings }
  let report: RunReport
  // Each beat goes to the log and, once the run has its publisher, to its progress (a PR's comment).
  const beat = (line: string): void => {
    ports.report(line)
    held.publisher?.onProgress?.(line)
  }
  const stopHeartbeat = startHeartbeat(beat, ports.heartbeatMs ?? heartbeatMs(ports.env))
  try {
    // The repository is in loopgate's custody from before the resume to after publishing.
    report = await withCustody(settings.workspace, runDir, (custody) =>
      resumeAndRun({ held, ports, remember, session, repository: GitRepository.held(custody) })
    ).finally(stopHeartbeat)
  } catch (err) {
    // However the run failed, its charges entry (what the ledger holds) ends its lease on the loop:
    // otherwise the next run of the loop is held until this one's deadline.
    const released = session?.release(path.join(runDir, 'ledger.jsonl'))
    const message = configErrorFrom(err, held.settings.workspace)
    if (message === null) {
      await released?.catch(() => undefined)
      throw err
    }
    await released
    return { kind: 'stopped', settings: held.settings, stopReason: 'config-error', message }
  }
  if (!session) return { kind: 'ran', settings: held.settings, report }
  // The state is saved after publishing.
  const stateSaved = await session.save(report)
  report.notes.push(...session.notes)
  return { kind: 'ran', settings: held.settings, report, session, stateSaved }
}

/** The loop's state, restored before anything is spent; a corrupt state or a full PR stop here. */
async function restoreState(
  settings: Settings,
  ports: SessionPorts,
  remember: (name: SessionMemo, value: string) => void
): Promise<{ session?: StateSession; stop?: SessionEnd }> {
  if (!ports.openState) return {}
  const opened = await ports.openState(settings)
  remember('state-session', JSON.stringify(opened.kind === 'corrupt' ? opened.info : opened.session.info))
  if (opened.kind === 'corrupt') {
    const message = `the cached state ${opened.key} is unreadable: ${opened.message}`
    return { stop: { kind: 'stopped', settings, stopReason: 'state-corrupt', message, log: { stateKey: opened.key, stateBlob: opened.blob } } }
  }
  const session = opened.session
  for (const warning of session.warnings) (ports.warn ?? ports.report)(warning)
  if (opened.kind === 'stop') return { session, stop: { kind: 'stopped', settings, stopReason: opened.stopReason, message: opened.message } }
  return { session }
}

/** The run's settings as the integration adjusted them, and its publisher once known. */
interface HeldSettings {
  settings: Settings
  publisher?: Publisher
}

/** A session holding the repository: its settings, its ports, what the post step is told, and the loop's state. */
interface HeldSession {
  held: HeldSettings
  ports: SessionPorts
  remember: (name: SessionMemo, value: string) => void
  session: StateSession | undefined
  /** The workspace's repository, through loopgate's own git directory. */
  repository: GitRepository
}

/** With the repository held: the resume, the publisher for this event, and the run. */
async function resumeAndRun({ held, ports, remember, session, repository }: HeldSession): Promise<RunReport> {
  if (session) {
    await session.resume(repository)
    remember('state-session', JSON.stringify(session.info))
    for (const note of session.notes) ports.report(note)
  }
  const recorded = session ? [...(session.state.escalationIssue !== null ? [session.state.escalationIssue] : []), ...session.state.openPullRequests] : []
  const integration = await ports.integrate(held.settings, recorded, session ? loopHistory(session.state) : undefined)
  const settings = (held.settings = integration.settings)
  held.publisher = integration.publisher
  // Every iteration: the entry point's progress line, and the publisher's (a PR's progress comment).
  const onIteration = (record: IterationRecord): void => {
    if (ports.onIteration) ports.onIteration(record)
    else ports.report(progressLine(record, settings))
    integration.publisher.onIteration?.(record)
  }
  return executeRun(settings, {
    env: ports.env,
    runId: ports.runId,
    tempDir: ports.tempDir,
    publisher: integration.publisher,
    signal: ports.signal,
    report: ports.report,
    explain: ports.explain,
    onIteration,
    carry: session?.carry(),
    baselines: session?.baselineStore(),
    isolation: ports.isolation,
    agentUser: ports.agentUser
  })
}

function ownerOf(dir: string): string | null {
  try {
    const st = lstatSync(dir)
    return `${st.uid}:${st.gid}`
  } catch {
    return null
  }
}
