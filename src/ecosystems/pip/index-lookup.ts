import { runProcess, type RunResult } from '../../process/run-process.js'

const PIP_TIMEOUT_MS = 3 * 60_000
const MAX_OUTPUT_CHARS = 8 * 1024 * 1024

/** What the index says about one project: its versions, that it does not know it, or why pip failed. */
export type Lookup = { kind: 'versions'; versions: string[] } | { kind: 'unknown' } | { kind: 'failed'; message: string }

/** One pip run: its arguments, the environment (the runner's pip configuration) and the signal. */
interface PipCall {
  args: string[]
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/**
 * pip as `python3 -I -m pip` from `/`: isolated mode puts neither the current directory nor
 * PYTHON* variables on its path, so nothing in the workspace or a shared temp folder is imported.
 * pip still reads its configuration (PIP_* variables, pip.conf) as it always does.
 */
export function runPip({ args, env, signal }: PipCall): Promise<RunResult> {
  return runProcess({
    command: 'python3',
    args: ['-I', '-m', 'pip', ...args],
    cwd: '/',
    env: { PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1', ...env },
    timeoutMs: PIP_TIMEOUT_MS,
    signal,
    maxOutputChars: MAX_OUTPUT_CHARS
  })
}

const pipTail = (r: RunResult): string =>
  `${r.stderr}\n${r.stdout}`
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^WARNING: pip index is currently an experimental command/.test(l))
    .slice(-5)
    .join(' | ')
    .slice(0, 800)

/** The versions `pip index versions` lists (`Available versions: 2.0.0, 1.0.0`). */
export function availableVersions(stdout: string): string[] | null {
  const m = /^Available versions:[ \t]*(.*)$/m.exec(stdout)
  if (!m) return null
  return m[1]
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean)
}

/** A project to look up on the index: its name, whether pre-releases count, the environment and the signal. */
interface IndexQuery {
  name: string
  pre: boolean
  env: NodeJS.ProcessEnv
  signal?: AbortSignal
}

/** The versions the configured index has of one project (`pip index versions`). */
export async function indexVersions({ name, pre, env, signal }: IndexQuery): Promise<Lookup> {
  const r = await runPip({ args: ['index', 'versions', ...(pre ? ['--pre'] : []), name], env, signal })
  const versions = r.exitCode === 0 ? availableVersions(r.stdout) : null
  if (versions) return { kind: 'versions', versions }
  const unreachable = /Retrying|Could not fetch URL|NewConnectionError|ConnectTimeout|ReadTimeout|SSLError|ProxyError|Max retries/i.test(r.stderr)
  if (r.exitCode === 1 && /No matching distribution found/i.test(r.stderr) && !unreachable) return { kind: 'unknown' }
  return { kind: 'failed', message: `pip index versions ${name} failed (${r.timedOut ? 'timed out' : (r.exitCode ?? r.signal)}): ${pipTail(r)}` }
}
