import { execFile } from 'node:child_process'
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { isTransientNetworkError, withRetry, type RetryOptions } from '../process/retry.js'
import { agentSpec, type AgentCli } from './agent-registry.js'

interface InstalledAgent {
  /** Absolute path of the CLI. */
  binary: string
  source: 'path' | 'tool-cache' | 'npm'
  version: string
  durationMs: number
}

interface InstallOptions {
  /** `agent-version`, default the pinned version. */
  version?: string
  /** The PATH the agent will get, searched first. */
  path?: string
  /** The runner environment (RUNNER_TOOL_CACHE / RUNNER_TEMP), for the tool cache. */
  env?: NodeJS.ProcessEnv
  /** The npm executable (a test may point it at a stand-in). */
  npm?: string
  report?: (line: string) => void
  /** Whether the agent's user can run a CLI found on PATH (one it cannot is passed over and installed instead). */
  usable?: (binary: string) => boolean
  /** How an install that failed on the network is tried again (a test shortens the waits). */
  retry?: Pick<RetryOptions, 'attempts' | 'baseDelayMs' | 'maxDelayMs'>
}

/** Finds an executable on a PATH string (the first that `usable` accepts, when given). */
export function onPath(name: string, searchPath: string | undefined, usable: (file: string) => boolean = () => true): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    try {
      accessSync(candidate, constants.X_OK)
      if (usable(candidate)) return candidate
    } catch {
      // not here
    }
  }
  return undefined
}

/** An npm binary, the folder to install into, the package spec and the environment. */
interface NpmInstall {
  npm: string
  prefix: string
  spec: string
  env: NodeJS.ProcessEnv
}

function npmInstall({ npm, prefix, spec, env }: NpmInstall): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      npm,
      ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', '--loglevel', 'error', spec],
      { env, maxBuffer: 16 * 1024 * 1024, timeout: 15 * 60_000 },
      (err, _stdout, stderr) => (err ? reject(new Error(`npm install ${spec} failed: ${stderr.trim() || err.message}`)) : resolve())
    )
  })
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200)

const TOOL_NAME = (agent: string): string => `loopgate-${agent}-cli`

/**
 * Outside Actions a plain cache folder plays the tool cache's part. As root it is a system folder
 * every user can run from (root's home is private, so the agent's user could not run a CLI kept
 * there); otherwise the user's own cache.
 */
function localToolDir(env: NodeJS.ProcessEnv, agent: string, version: string): string {
  const root = process.getuid?.() === 0 ? '/var/cache' : env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache')
  return path.join(root, 'loopgate', 'tools', TOOL_NAME(agent), version)
}

/** The agent's CLI package from the registry; an agent without one brings its own command. */
function cliOf(agent: string): AgentCli {
  const cli = agentSpec(agent).cli
  if (!cli) throw new Error(`agent ${agent} has no CLI package to install`)
  return cli
}

/**
 * Makes the agent's CLI available: on PATH as it is, else the pinned (or `agent-version`) npm
 * package from the tool cache, else installed with npm into the tool cache so the next run on
 * this runner restores it instead of downloading again. Prints how long it took.
 */
export async function ensureAgentCli(agent: string, opts: InstallOptions = {}): Promise<InstalledAgent> {
  const started = Date.now()
  const report = opts.report ?? (() => undefined)
  const env = opts.env ?? process.env
  const pinned = cliOf(agent)
  const version = opts.version?.trim() || pinned.version
  const found = onPath(pinned.bin, opts.path ?? env.PATH, opts.usable)
  const done = (binary: string, source: InstalledAgent['source']): InstalledAgent => {
    const durationMs = Date.now() - started
    const where = source === 'path' ? 'found on PATH' : source === 'tool-cache' ? `restored from the tool cache` : `installed with npm`
    report(`${pinned.bin}: ${where} (${binary}) in ${(durationMs / 1000).toFixed(1)} s`)
    return { binary, source, version: source === 'path' ? 'on PATH' : version, durationMs }
  }
  if (found && !opts.version) return done(found, 'path')

  const binIn = (dir: string): string => path.join(dir, 'node_modules', '.bin', pinned.bin)
  const toolCacheRoot = env.RUNNER_TOOL_CACHE
  // The tool cache client is loaded only when the agent is not already on PATH.
  const tc = await import('@actions/tool-cache')
  if (toolCacheRoot) {
    const cached = withEnv({ RUNNER_TOOL_CACHE: toolCacheRoot }, () => tc.find(TOOL_NAME(agent), version))
    if (cached && existsSync(binIn(cached))) return done(binIn(cached), 'tool-cache')
  } else {
    const dir = localToolDir(env, agent, version)
    if (existsSync(binIn(dir))) return done(binIn(dir), 'tool-cache')
  }

  const tempRoot = env.RUNNER_TEMP || os.tmpdir()
  mkdirSync(tempRoot, { recursive: true })
  const staging = mkdtempSync(path.join(tempRoot, `${TOOL_NAME(agent)}-`))
  try {
    report(`${pinned.bin} is not on PATH: installing ${pinned.package}@${version} with npm`)
    await withRetry(() => npmInstall({ npm: opts.npm ?? 'npm', prefix: staging, spec: `${pinned.package}@${version}`, env }), {
      ...opts.retry,
      isTransient: isTransientNetworkError,
      onRetry: (err, attempt, delayMs) =>
        report(`${pinned.package}@${version}: attempt ${attempt} failed on the network; trying again in ${(delayMs / 1000).toFixed(1)} s (${firstLine(err)})`)
    })
    if (!existsSync(binIn(staging))) throw new Error(`npm installed ${pinned.package}@${version} but ${binIn(staging)} is missing`)
    let dest: string
    if (toolCacheRoot) {
      dest = await withEnvAsync({ RUNNER_TOOL_CACHE: toolCacheRoot, RUNNER_TEMP: tempRoot }, () => tc.cacheDir(staging, TOOL_NAME(agent), version))
    } else {
      dest = localToolDir(env, agent, version)
      mkdirSync(path.dirname(dest), { recursive: true, mode: 0o755 })
      rmSync(dest, { recursive: true, force: true })
      await import('node:fs/promises').then((fs) => fs.cp(staging, dest, { recursive: true, verbatimSymlinks: true }))
      // The staging folder was private (mkdtemp): the copy is for the agent's user too.
      chmodSync(dest, 0o755)
    }
    return done(binIn(dest), 'npm')
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** @actions/tool-cache reads its directories from process.env at call time. */
function withEnv<T>(vars: Record<string, string>, fn: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  try {
    return fn()
  } finally {
    restore(saved)
  }
}

async function withEnvAsync<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]))
  Object.assign(process.env, vars)
  try {
    return await fn()
  } finally {
    restore(saved)
  }
}

function restore(saved: Record<string, string | undefined>): void {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
}
