import * as core from '@actions/core'
import { appendFileSync, existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { ConfigError, readSettings, type Settings } from './inputs.js'
import { ProgressFile } from './loop/progress.js'
import { outcomeFor, stopReasonEntry, type StopReason } from './loop/stop-reasons.js'
import { createIntegration } from './github/integration.js'
import { preLoopSummary, runSummary } from './report/markdown.js'
import { withCustody } from './git/custody.js'
import { defaultRunId, defaultTempDir, executeRun, prepareRunDir, type RunReport } from './run.js'
import { openStateSession, type StateSession } from './state/session.js'
import { loopHistory } from './state/record.js'
import { progressLine } from './loop/engine.js'

export const STATE_MAIN_FINISHED = 'main-finished'
export const STATE_RUN_DIR = 'run-dir'
/** JSON SessionInfo (src/state/session.ts) for the post step. */
export const STATE_SESSION = 'state-session'
/** The workspace and its owner (`uid:gid`), so the post step can hand it back after a kill. */
export const STATE_WORKSPACE = 'workspace'
export const STATE_WORKSPACE_OWNER = 'workspace-owner'

function setOutputs(values: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(values)) core.setOutput(name, String(value))
}

/** Ends a run that never reached the loop (bad input): one stop reason, nothing spent. */
async function failBeforeLoop(reason: StopReason, message: string, settings?: Settings, extra: Record<string, unknown> = {}): Promise<void> {
  const env = process.env
  const loopId = settings?.loopId ?? 'loopgate'
  const runDir = prepareRunDir(defaultTempDir(env), loopId, defaultRunId(env))
  const logFile = path.join(runDir, 'attempts.jsonl')
  appendFileSync(logFile, `${JSON.stringify({ at: new Date().toISOString(), type: 'stop', stopReason: reason, message, spentUsd: 0, ...extra })}\n`)
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
  const line = `loopgate stopped: ${report.stopReason} — ${stopReasonEntry(report.stopReason).what}`
  if (report.stopReason === 'verified') core.notice(line)
  else core.warning(line)
}

export async function run(): Promise<void> {
  core.saveState(STATE_MAIN_FINISHED, 'false')
  let settings: Settings
  try {
    settings = readSettings((name) => core.getInput(name))
  } catch (err) {
    if (err instanceof ConfigError) return failBeforeLoop('config-error', err.message)
    throw err
  }
  // The runner masks github.token and secrets itself; echoing them in ::add-mask:: would only
  // put them in one more stream.

  // The runner sends SIGINT, then SIGTERM 7.5 s later, then kills.
  // Every signal aborts the run (the engine and runProcess kill the agent's process group and
  // charge the call); the handlers stay until run() returns so a second signal cannot kill the
  // process while the ledger, the log and the state are written.
  const abort = new AbortController()
  const onSignal = (sig: NodeJS.Signals): void => {
    if (!abort.signal.aborted) core.warning(`loopgate: received ${sig}; stopping the agent, charging the call, saving the state.`)
    abort.abort()
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  try {
    await runWithSignal(settings, abort)
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
}

async function runWithSignal(settings: Settings, abort: AbortController): Promise<void> {
  const env = process.env
  const runId = defaultRunId(env)
  const runDir = prepareRunDir(defaultTempDir(env), settings.loopId, runId)
  core.saveState(STATE_RUN_DIR, runDir)
  core.saveState(STATE_WORKSPACE, settings.workspace)
  if (existsSync(settings.workspace)) {
    const owner = statSync(settings.workspace)
    core.saveState(STATE_WORKSPACE_OWNER, `${owner.uid}:${owner.gid}`)
  }
  // The state is restored before anything is spent.
  const opened = await openStateSession(settings, { env, tempDir: defaultTempDir(env), runId })
  core.saveState(STATE_SESSION, JSON.stringify(opened.kind === 'corrupt' ? opened.info : opened.session.info))
  if (opened.kind === 'corrupt') {
    return failBeforeLoop('state-corrupt', `the cached state ${opened.key} is unreadable: ${opened.message}`, settings, {
      stateKey: opened.key,
      stateBlob: opened.blob
    })
  }
  const session: StateSession = opened.session
  for (const note of session.notes) if (/could not be restored/.test(note)) core.warning(note)
  if (opened.kind === 'review-capacity') return failBeforeLoop('review-capacity', opened.message, settings)
  let report: RunReport
  try {
    // The repository is in loopgate's custody from before the resume to after publishing.
    report = await withCustody(settings.workspace, runDir, async () => {
      await session.resume()
      core.saveState(STATE_SESSION, JSON.stringify(session.info))
      for (const note of session.notes) core.info(note)
      const recorded = [...(session.state.escalationIssue !== null ? [session.state.escalationIssue] : []), ...session.state.openPullRequests]
      const github = await createIntegration(settings, env, defaultTempDir(env), (m) => core.warning(m), recorded, loopHistory(session.state))
      settings = github.settings
      return executeRun(settings, {
        env,
        runId,
        tempDir: defaultTempDir(env),
        publisher: github.publisher,
        signal: abort.signal,
        report: (line) => core.info(line),
        // The log line the engine writes without a callback, and the PR's progress comment.
        onIteration: (record) => {
          core.info(progressLine(record, settings))
          github.publisher.onIteration?.(record)
        },
        carry: session.carry()
      })
    })
  } catch (err) {
    if (err instanceof ConfigError) return failBeforeLoop('config-error', err.message, settings)
    const message = err instanceof Error ? err.message : String(err)
    if (/not a git repository|needed a single revision|unknown revision/i.test(message)) {
      return failBeforeLoop('config-error', `the workspace ${settings.workspace} is not a git repository with a commit (${message.trim()})`, settings)
    }
    throw err
  }
  writeReport(report)
  // The state is saved after publishing.
  const saved = await session.save(report)
  if (!saved.saved) core.warning(`loopgate: the loop state was not saved: ${saved.message ?? 'unknown reason'}`)
  else core.info(`loopgate: state saved as ${session.info.key}`)
  report.notes.push(...session.notes)
  // A summary for every run; a publishing failure fails the step.
  const summary = report.run
    ? runSummary(report.run, { loopId: settings.loopId, spendCeilingUsd: settings.spendCeilingUsd, logFile: report.logFile, logUrl: report.published.logUrl, notes: report.notes })
    : preLoopSummary(report.stopReason, settings.loopId, report.notes)
  const published = [report.published.pullRequestUrl && `Pull request: ${report.published.pullRequestUrl}`, report.published.issueUrl && `Issue: ${report.published.issueUrl}`, report.published.error && `**Publishing failed:** ${report.published.error}`]
  await core.summary
    .addRaw([summary, ...published.filter(Boolean)].join('\n\n'))
    .write()
    .catch((e: Error) => core.warning(`could not write the step summary: ${e.message}`))
  core.saveState(STATE_MAIN_FINISHED, 'true')
  if (report.published.error) core.setFailed(`loopgate could not publish: ${report.published.error}`)
  else if (report.outcome === 'stopped') core.setFailed(`loopgate stopped: ${report.stopReason}: ${report.notes.join(' ')}`)
}
