import * as core from '@actions/core'
import { appendFileSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { ConfigError, readSettings, type Settings } from './inputs.js'
import { ProgressFile } from './loop/progress.js'
import { outcomeFor, STOP_EXPLANATIONS, type StopReason } from './loop/stop-reasons.js'
import { createIntegration } from './github/integration.js'
import { preLoopSummary, runSummary } from './report/markdown.js'
import { defaultRunId, defaultTempDir, executeRun, runDirFor, type RunReport } from './run.js'

export const STATE_MAIN_FINISHED = 'main-finished'
export const STATE_RUN_DIR = 'run-dir'

function setOutputs(values: Record<string, string | number>): void {
  for (const [name, value] of Object.entries(values)) core.setOutput(name, String(value))
}

/** Ends a run that never reached the loop (bad input): one stop reason, nothing spent. */
async function failBeforeLoop(reason: StopReason, message: string, settings?: Settings): Promise<void> {
  const env = process.env
  const loopId = settings?.loopId ?? 'loopgate'
  const runDir = runDirFor(defaultTempDir(env), loopId, defaultRunId(env))
  mkdirSync(runDir, { recursive: true })
  const logFile = path.join(runDir, 'attempts.jsonl')
  appendFileSync(logFile, `${JSON.stringify({ at: new Date().toISOString(), type: 'stop', stopReason: reason, message, spentUsd: 0 })}\n`)
  if (settings) new ProgressFile(path.join(settings.workspace, settings.progressFile)).appendStop(reason)
  setOutputs({ outcome: outcomeFor(reason), 'stop-reason': reason, iterations: 0, 'spend-usd': '0.00', 'log-file': logFile })
  await core.summary
    .addHeading(`loopgate: ${reason}`, 2)
    .addRaw(`${STOP_EXPLANATIONS[reason].what}\n\n${message}\n\nNothing was spent.`)
    .write()
    .catch(() => undefined)
  core.setFailed(`loopgate stopped: ${reason}: ${message}`)
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
  const line = `loopgate stopped: ${report.stopReason} — ${STOP_EXPLANATIONS[report.stopReason].what}`
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

  const abort = new AbortController()
  const onSignal = (): void => abort.abort()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)

  const env = process.env
  const runId = defaultRunId(env)
  core.saveState(STATE_RUN_DIR, runDirFor(defaultTempDir(env), settings.loopId, runId))
  let report: RunReport
  try {
    // --- GitHub integration (issue 5): the event plan and the publisher ---
    const github = await createIntegration(settings, env, defaultTempDir(env), (m) => core.warning(m))
    settings = github.settings
    // --- end GitHub integration ---
    report = await executeRun(settings, {
      env,
      runId,
      tempDir: defaultTempDir(env),
      publisher: github.publisher,
      signal: abort.signal,
      report: (line) => core.info(line)
    })
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (/not a git repository|needed a single revision|unknown revision/i.test(message)) {
      return failBeforeLoop('config-error', `the workspace ${settings.workspace} is not a git repository with a commit (${message.trim()})`, settings)
    }
    throw err
  } finally {
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
  }
  writeReport(report)
  // --- GitHub integration (issue 5): summary for every run, publishing failures fail the step ---
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
  // --- end GitHub integration ---
}
