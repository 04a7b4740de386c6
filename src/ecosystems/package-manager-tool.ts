import { ConfigError } from '../errors.js'
import { runProcess, type RunResult } from '../process/run-process.js'

const TOOL_TIMEOUT_MS = 10 * 60_000
const VERSION_TIMEOUT_MS = 60_000
const MAX_OUTPUT = 32 * 1024 * 1024

/** The package manager a manifest's `packageManager` field declares (`pnpm@10.34.9+sha512.…`). */
export function declaredManager(field: unknown): { name: string; version: string } | null {
  if (typeof field !== 'string') return null
  const m = /^\s*([a-z][\w-]*)@([^+\s]+)/.exec(field)
  return m ? { name: m[1], version: m[2] } : null
}

/** How a package manager is started: its own binary on PATH, or corepack with a version it already has. */
export interface Tool {
  name: string
  /** The version it reported. */
  version: string
  command: string
  prefix: string[]
  /** Variables every run of it adds: no download of another version, no prompt. */
  env: Record<string, string>
}

/** Corepack must never reach the network (the bump uses what the runner has) nor ask. */
const COREPACK_OFFLINE = { COREPACK_ENABLE_NETWORK: '0', COREPACK_ENABLE_DOWNLOAD_PROMPT: '0', COREPACK_ENABLE_AUTO_PIN: '0' }

/** A command to ask for its version, with the arguments before `--version` and its environment. */
interface VersionProbe {
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

async function reportedVersion({ command, args, env, signal }: VersionProbe): Promise<string | null> {
  // From `/`: the project's own files play no part in which version answers.
  const r = await runProcess({ command, args: [...args, '--version'], cwd: '/', env, timeoutMs: VERSION_TIMEOUT_MS, signal, maxOutputChars: 4096 })
  const version = r.stdout.trim().split('\n').pop()?.trim() ?? ''
  return r.exitCode === 0 && /^\d+\.\d+\.\d+\S*$/.test(version) ? version : null
}

/** A package manager's name, the version the project declares (null: none) and the runner's environment. */
interface ToolWanted {
  name: string
  declared: string | null
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/**
 * The package manager `name` at the version the project declares: the one on PATH when it is that
 * version (or any version, when none is declared), else corepack's copy when corepack has it
 * offline. When it cannot be had the run stops as a config error before anything is spent, naming
 * `name@version`; loopgate never falls back to another manager.
 */
export async function resolveTool({ name, declared, env, signal }: ToolWanted): Promise<Tool> {
  // pnpm would switch to the version `packageManager` names, Yarn classic to a `yarn-path` from .yarnrc: the resolved binary runs.
  const own = { ...COREPACK_OFFLINE, ...(name === 'pnpm' ? { npm_config_manage_package_manager_versions: 'false' } : { YARN_IGNORE_PATH: '1' }) }
  const onPath = await reportedVersion({ command: name, args: [], env: { ...env, ...own }, signal })
  if (onPath !== null && (declared === null || onPath === declared)) return { name, version: onPath, command: name, prefix: [], env: own }
  if (declared !== null) {
    const viaCorepack = await reportedVersion({ command: 'corepack', args: [`${name}@${declared}`], env: { ...env, ...own }, signal })
    if (viaCorepack === declared) return { name, version: declared, command: 'corepack', prefix: [`${name}@${declared}`], env: own }
  }
  const found = onPath === null ? `no ${name} on PATH` : `the ${name} on PATH is ${onPath}`
  const wanted = declared === null ? name : `${name}@${declared}`
  const why = declared === null ? `it is a ${name} project, but ${found}` : `it declares ${wanted}, but ${found}, and corepack does not have it offline`
  throw new ConfigError(
    'task',
    'dependency-upgrade',
    `a project whose package manager can be had: ${why} (loopgate never falls back to npm; install ${wanted} on the runner, or fetch it into corepack's cache in a step before loopgate: \`corepack install\` in the project)`
  )
}

/** A resolved package manager, the folder and arguments to run it with, and the environment. */
interface ToolCall {
  tool: Tool
  cwd: string
  args: string[]
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/** Runs the resolved package manager in `cwd` with `env` plus its own variables. */
export function runTool({ tool, cwd, args, env, signal }: ToolCall): Promise<RunResult> {
  return runProcess({
    command: tool.command,
    args: [...tool.prefix, ...args],
    cwd,
    env: { ...env, ...tool.env },
    timeoutMs: TOOL_TIMEOUT_MS,
    signal,
    maxOutputChars: MAX_OUTPUT
  })
}

/** The last lines of a failed run, for the message. */
export function failureTail(r: RunResult): string {
  const how = r.timedOut ? 'timed out' : r.notStarted ? `not started: ${r.notStarted}` : (r.exitCode ?? r.signal)
  return `(${how}): ${`${r.stderr}\n${r.stdout}`.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)}`
}
