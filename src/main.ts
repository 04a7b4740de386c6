import * as core from '@actions/core'
import { statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { readSettings } from './inputs/read-settings.js'
import { ConfigError } from './errors.js'
import { type Settings } from './settings.js'
import { ProgressFile } from './records/progress-file.js'
import { outcomeFor, stopReasonEntry, type StopReason } from './loop/stop-reasons.js'
import { createIntegration } from './publish/github/integration.js'
import { preLoopSummary, runSummary, skipNote } from './report/markdown.js'
import { AttemptLog } from './records/attempt-log.js'
import { defaultRunId, defaultTempDir, prepareRunDir, type RunReport } from './run/context.js'
import { runSession, type SessionMemo } from './session/flow.js'
import { openStateSession } from './state/session.js'

export const STATE_MAIN_FINISHED = 'main-finished'
const STATE_RUN_DIR = 'run-dir'
/** JSON SessionInfo (src/state/session.ts) for the post step. */
const STATE_SESSION = 'state-session'
/** The workspace and its owner (`uid:gid`), so the post step can hand it back after a kill. */
const STATE_WORKSPACE = 'workspace'
const STATE_WORKSPACE_OWNER = 'workspace-owner'

function setOutputs(values: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(values)) core.setOutput(name, String(value))
}

/** Why RUNNER_TEMP, when set, cannot hold the run's folders; null when it can. */
function runnerTempProblem(env: NodeJS.ProcessEnv): string | null {
  const dir = env.RUNNER_TEMP
  if (!dir) return null
  let isDir = false
  try {
    isDir = statSync(dir).isDirectory()
  } catch {
    return `RUNNER_TEMP ${dir} does not exist: create it (mkdir -p ${dir}) before this step, or leave RUNNER_TEMP unset (loopgate then uses the OS temp dir)`
  }
  return isDir ? null : `RUNNER_TEMP ${dir} is not a folder: point it at a folder, or leave it unset (loopgate then uses the OS temp dir)`
}

/** A run that never reached the loop: its stop reason and message, its settings when they were read, extra log fields. */
interface EarlyFailure {
  reason: StopReason
  message: string
  settings?: Settings
  extra?: Record<string, unknown>
}

/** Ends a run that never reached the loop (bad input): one stop reason, nothing spent. */
async function failBeforeLoop({ reason, message, settings, extra = {} }: EarlyFailure): Promise<void> {
  const env = process.env
  const loopId = settings?.loopId ?? 'loopgate'
  const runDir = prepareRunDir(runnerTempProblem(env) ? os.tmpdir() : defaultTempDir(env), loopId, defaultRunId(env))
  const log = new AttemptLog(path.join(runDir, 'attempts.jsonl'))
  log.write({ type: 'stop', stopReason: reason, message, spentUsd: 0, ...extra })
  const logFile = log.file
  if (settings) new ProgressFile(settings.workspace, settings.progressFile).appendStop(reason)
  setOutputs({ outcome: outcomeFor(reason), 'stop-reason': reason, iterations: 0, 'spend-usd': '0.00', 'log-file': logFile })
  await core.summary
    .addHeading(`loopgate: ${reason}`, 2)
    .addRaw(`${stopReasonEntry(reason).what}\n\n${message}\n\nNothing was spent.`)
    .write()
    .catch(() => undefined)
  core.saveState(STATE_MAIN_FINISHED, 'true')
  if (outcomeFor(reason) === 'stopped') core.setFailed(`loopgate stopped: ${reason}: ${message}`)
  else core.warning(`loopgate: ${reason}: ${message}`)
}

function writeReport(report: RunReport): void {
  const run = report.run
  setOutputs({
    outcome: report.outcome,
    'stop-reason': report.stopReason,
    iterations: run?.iterations.length ?? 0,
    'spend-usd': (run?.spentUsd ?? 0).toFixed(2),
    'pull-request-url': report.published.pullRequestUrl ?? '',
    'issue-url': report.published.issueUrl ?? '',
    'log-file': report.logFile
  })
  const skip = report.run === null ? skipNote(report.notes) : undefined
  const line = skip ? `loopgate ${skip}` : `loopgate stopped: ${report.stopReason} — ${stopReasonEntry(report.stopReason).what}`
  if (report.stopReason === 'verified') core.notice(line)
  else core.warning(line)
}

export async function run(): Promise<void> {
  core.saveState(STATE_MAIN_FINISHED, 'false')
  let settings: Settings
  try {
    settings = readSettings((name) => core.getInput(name))
  } catch (err) {
    if (err instanceof ConfigError) return failBeforeLoop({ reason: 'config-error', message: err.message })
    throw err
  }
  const tempProblem = runnerTempProblem(process.env)
  if (tempProblem) return failBeforeLoop({ reason: 'config-error', message: tempProblem, settings })
  // The runner masks github.token and secrets itself; echoing them in ::add-mask:: would only
  // put them in one more stream.

  // The runner sends SIGINT, then SIGTERM 7.5 s later, then kills. Every signal aborts the run (the
  // engine and runProcess kill the agent's process group and charge the call); the handlers stay
  // until run() returns so a second signal cannot kill the process while the ledger, the log and
  // the state are written.
  const abort = new AbortController()
  const onSignal = (sig: NodeJS.Signals): void => {
    if (!abort.signal.aborted) core.warning(`loopgate: received ${sig}; stopping the agent, charging the call, saving the state.`)
    abort.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    await runAction(settings, abort.signal)
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}

/** Where the action keeps what the session remembers for the post step (its saved state). */
export const MEMO_STATE: Record<SessionMemo, string> = {
  'run-dir': STATE_RUN_DIR,
  workspace: STATE_WORKSPACE,
  'workspace-owner': STATE_WORKSPACE_OWNER,
  'state-session': STATE_SESSION
}

async function runAction(settings: Settings, signal: AbortSignal): Promise<void> {
  const env = process.env
  const runId = defaultRunId(env)
  const tempDir = defaultTempDir(env)
  const end = await runSession(settings, {
    env,
    runId,
    tempDir,
    signal,
    report: (line) => core.info(line),
    warn: (line) => core.warning(line),
    remember: (name, value) => core.saveState(MEMO_STATE[name], value),
    openState: (s) => openStateSession(s, { env, tempDir, runId }),
    integrate: async (s, recorded, history) => {
      const github = await createIntegration({ settings: s, env, tempDir, warn: (m) => core.warning(m), recorded, history })
      return { settings: github.settings, publisher: github.publisher }
    }
  })
  if (end.kind === 'stopped') return failBeforeLoop({ reason: end.stopReason, message: end.message, settings: end.settings, extra: end.log })
  const { report } = end
  settings = end.settings
  writeReport(report)
  if (end.stateSaved && end.session) {
    if (!end.stateSaved.saved) core.warning(`loopgate: the loop state was not saved: ${end.stateSaved.message ?? 'unknown reason'}`)
    else core.info(`loopgate: state saved as ${end.session.info.key}`)
  }
  // A summary for every run; a publishing failure fails the step.
  const summary = report.run
    ? runSummary(report.run, {
        loopId: settings.loopId,
        spendCeilingUsd: settings.spendCeilingUsd,
        logFile: report.logFile,
        logUrl: report.published.logUrl,
        notes: report.notes
      })
    : preLoopSummary(report.stopReason, settings.loopId, report.notes)
  const published = [
    report.published.pullRequestUrl && `Pull request: ${report.published.pullRequestUrl}`,
    report.published.issueUrl && `Issue: ${report.published.issueUrl}`,
    report.published.error && `**Publishing failed:** ${report.published.error}`
  ]
  await core.summary
    .addRaw([summary, ...published.filter(Boolean)].join('\n\n'))
    .write()
    .catch((e: Error) => core.warning(`could not write the step summary: ${e.message}`))
  core.saveState(STATE_MAIN_FINISHED, 'true')
  if (report.published.error) core.setFailed(`loopgate could not publish: ${report.published.error}`)
  else if (report.outcome === 'stopped') core.setFailed(`loopgate stopped: ${report.stopReason}: ${report.notes.join(' ')}`)
}
