import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { tempDir } from './repo.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
/** The bundled action: dist/, or a bundle built elsewhere (`node scripts/package.mjs <dir>`, LOOPGATE_TEST_DIST=<dir>/index.js). */
export const DIST_INDEX = process.env.LOOPGATE_TEST_DIST || path.join(ROOT, 'dist', 'index.js')

/**
 * loopgate kills every process of its agent user after each call, so test files running at the
 * same time (jest workers) each get an agent user of their own.
 */
export function workerAgentUser(): string {
  return `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-w${process.env.JEST_WORKER_ID ?? '0'}`
}

/** Parses the runner's file commands format (`name<<DELIM\nvalue\nDELIM`, or `name=value`). */
export function parseFileCommands(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const [, name, delim] = heredoc
      const value: string[] = []
      while (++i < lines.length && lines[i] !== delim) value.push(lines[i])
      out[name] = value.join('\n')
    } else if (line.includes('=')) {
      const eq = line.indexOf('=')
      out[line.slice(0, eq)] = line.slice(eq + 1)
    }
  }
  return out
}

export interface ActionRun {
  exitCode: number | null
  signal: string | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  state: Record<string, string>
  summary: string
  files: { output: string; state: string; summary: string; runnerTemp: string }
}

export interface ActionRunOptions {
  inputs: Record<string, string>
  workspace: string
  eventName?: string
  event?: unknown
  env?: Record<string, string>
  /** Reuse the runner temp and state of an earlier step (post step). */
  runnerTemp?: string
  state?: Record<string, string>
  /** Called with the child process once spawned (e.g. to signal it). */
  onSpawn?: (child: ChildProcess) => void
  timeoutMs?: number
  entry?: string
  /** Run as this user (the runner temp and file-command files are handed to it first). */
  as?: { uid: number; gid: number; home: string }
  /** In a process group of its own (the step's group, as the runner starts it): `process.kill(-pid)` ends the whole step. */
  detached?: boolean
}

/** Runs the bundled action as the runner does: INPUT_* env, file commands, event payload. */
export function runAction(opts: ActionRunOptions): Promise<ActionRun> {
  const runnerTemp = opts.runnerTemp ?? tempDir('loopgate-runner-')
  const files = {
    output: path.join(runnerTemp, `output-${Date.now()}-${Math.random().toString(36).slice(2)}`),
    state: path.join(runnerTemp, `state-${Date.now()}-${Math.random().toString(36).slice(2)}`),
    summary: path.join(runnerTemp, `summary-${Date.now()}-${Math.random().toString(36).slice(2)}`),
    runnerTemp
  }
  mkdirSync(runnerTemp, { recursive: true })
  for (const f of [files.output, files.state, files.summary]) writeFileSync(f, '')
  const eventPath = path.join(runnerTemp, 'event.json')
  writeFileSync(eventPath, JSON.stringify(opts.event ?? {}))
  if (opts.as) execFileSync('chown', ['-R', `${opts.as.uid}:${opts.as.gid}`, runnerTemp])
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: opts.as?.home ?? process.env.HOME ?? '/root',
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: opts.workspace,
    GITHUB_EVENT_NAME: opts.eventName ?? 'workflow_dispatch',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: files.state,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
    // a maintainer (the local GitHub server gives this login admin permission)
    GITHUB_ACTOR: 'octo-maintainer',
    GITHUB_WORKFLOW: 'nightly',
    GITHUB_JOB: 'upgrade',
    GITHUB_RUN_ID: String(1000 + Math.floor(Math.random() * 100000)),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: runnerTemp,
    LOOPGATE_AGENT_USER: workerAgentUser(),
    ...(opts.env ?? {})
  }
  for (const [name, value] of Object.entries(opts.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value
  for (const [name, value] of Object.entries(opts.state ?? {})) env[`STATE_${name}`] = value
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [opts.entry ?? DIST_INDEX], {
      cwd: opts.workspace,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: opts.as?.uid,
      gid: opts.as?.gid,
      detached: opts.detached
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 240_000)
    opts.onSpawn?.(child)
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer)
      resolve({
        exitCode,
        signal,
        stdout,
        stderr,
        outputs: parseFileCommands(readFileSync(files.output, 'utf8')),
        state: { ...(opts.state ?? {}), ...parseFileCommands(readFileSync(files.state, 'utf8')) },
        summary: readFileSync(files.summary, 'utf8'),
        files
      })
    })
  })
}

/** Runs the post step after `main`, with main's saved state and runner temp. */
export function runPost(main: ActionRun, opts: ActionRunOptions): Promise<ActionRun> {
  return runAction({ ...opts, runnerTemp: main.files.runnerTemp, state: main.state })
}
