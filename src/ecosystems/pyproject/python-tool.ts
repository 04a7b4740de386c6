import { ConfigError } from '../../errors.js'
import { runProcess, type RunResult } from '../../process/run-process.js'

const VERSION_TIMEOUT_MS = 60_000
const TOOL_TIMEOUT_MS = 10 * 60_000
const MAX_OUTPUT = 16 * 1024 * 1024

/** What the project declares it is managed with, for the message when that tool is missing. */
interface PythonToolWanted {
  /** The binary (`poetry`, `uv`). */
  name: string
  /** Why the project is that tool's (`it has a poetry.lock`). */
  because: string
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/**
 * The version of the Python project manager on PATH (`Poetry (version 1.3.2)`, `uv 0.5.1`), asked
 * from `/`. When there is none the run stops as a config error before anything is spent, naming
 * the tool: loopgate never falls back to pip for a project that declares another manager.
 */
export async function resolvePythonTool({ name, because, env, signal }: PythonToolWanted): Promise<string> {
  const r = await runProcess({ command: name, args: ['--version'], cwd: '/', env, timeoutMs: VERSION_TIMEOUT_MS, signal, maxOutputChars: 4096 })
  const version = /(\d+\.\d+(?:\.\d+)?\S*)\)?\s*$/.exec(r.stdout.trim())?.[1]
  if (r.exitCode === 0 && version) return version
  const found = r.notStarted ? `no ${name} on PATH` : `\`${name} --version\` failed (${r.exitCode ?? r.signal})`
  throw new ConfigError(
    'task',
    'dependency-upgrade',
    `a project whose package manager can be had: ${because}, but ${found} (loopgate never falls back to pip; install ${name} on the runner)`
  )
}

/** One run of the project's manager in the workspace, with its environment. */
interface PythonToolCall {
  name: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

export function runPythonTool({ name, args, cwd, env, signal }: PythonToolCall): Promise<RunResult> {
  return runProcess({ command: name, args, cwd, env, timeoutMs: TOOL_TIMEOUT_MS, signal, maxOutputChars: MAX_OUTPUT })
}

/** The last lines of a failed run, for the message. */
export function toolTail(r: RunResult): string {
  const how = r.timedOut ? 'timed out' : r.notStarted ? `not started: ${r.notStarted}` : (r.exitCode ?? r.signal)
  return `(${how}): ${`${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)}`
}
