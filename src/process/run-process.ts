import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { StringDecoder } from 'node:string_decoder'
import { CallCgroup } from './cgroup.js'
import { killCallProcesses } from './reap.js'

/** How a process is started: what runProcess would spawn, and as whom. */
export interface ProcessStart {
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  uid?: number
  gid?: number
}

/** Rewrites a start into another that runs it (a sandbox that starts it in namespaces of its own). */
export type Launcher = (start: ProcessStart) => ProcessStart

export interface RunOptions {
  command: string
  args: string[]
  cwd: string
  env: NodeJS.ProcessEnv
  stdin?: string
  timeoutMs?: number
  signal?: AbortSignal
  uid?: number
  gid?: number
  /** Called for every complete stdout line as it arrives. Return 'kill' to stop the process group. */
  onStdoutLine?: (line: string) => void | 'kill'
  /** Keep at most this many characters of each stream (the tail). */
  maxOutputChars?: number
  /**
   * A unique marker value put into the child's environment as LOOPGATE_CALL_ID; after the
   * process ends, every process still carrying it (a grandchild that left the group) is killed.
   */
  callId?: string
  /** Grace period between SIGTERM and SIGKILL. */
  killGraceMs?: number
  /** Run the process in a cgroup of its own (where cgroup v2 is writable) and kill all of it at the end. */
  contain?: boolean
  /**
   * For a process run as a user of its own: kills every process of that user. It stands in for the
   * marker's scan when the process exits (no descendant, marked or not, can hold its output open);
   * the caller sweeps the user again once the call is over.
   */
  sweep?: () => void
  /** Starts the process through this launcher (see ProcessStart). */
  launch?: Launcher
}

export interface RunResult {
  exitCode: number | null
  signal: string | null
  stdout: string
  stderr: string
  timedOut: boolean
  aborted: boolean
  /** Set when onStdoutLine asked for the kill. */
  killedByWatcher: boolean
  durationMs: number
  /** The spawn error's code (ENOENT, EACCES) when the process never started. */
  notStarted?: string
}

const DEFAULT_MAX_OUTPUT = 2_000_000
/** A stdout line longer than this is not handed to onStdoutLine (memory stays bounded). */
const MAX_WATCHED_LINE = 4_000_000

/**
 * The last `max` characters of a stream, kept as the raw chunks that hold them: memory stays about
 * `max` bytes however much passes through, and nothing is copied until the end.
 */
class TailBuffer {
  private chunks: Buffer[] = []
  private bytes = 0
  /** Counted in bytes: UTF-8 takes at most 3 per UTF-16 unit, so the tail holds at least `max` characters. */
  private readonly keep: number
  constructor(private readonly max: number) {
    this.keep = max * 3
  }
  push(chunk: Buffer): void {
    this.chunks.push(chunk)
    this.bytes += chunk.length
    while (this.chunks.length > 1 && this.bytes - this.chunks[0].length >= this.keep) this.bytes -= this.chunks.shift()!.length
  }
  value(): string {
    let buf = Buffer.concat(this.chunks)
    if (buf.length > this.keep) buf = buf.subarray(buf.length - this.keep)
    const text = buf.toString('utf8')
    return text.length > this.max ? text.slice(-this.max) : text
  }
}

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (!pid) return
  try {
    process.kill(-pid, sig)
  } catch {
    // the group is already gone
  }
}

/** Splits stdout into lines for a watcher; an overlong line is dropped up to its end (memory stays bounded). */
class LineReader {
  private pending = ''
  /** Inside an overlong line: dropped up to its end. */
  private skipping = false
  private readonly decoder = new StringDecoder('utf8')

  constructor(private readonly onLine: (line: string) => void) {}

  push(bytes: Buffer): void {
    this.pending += this.decoder.write(bytes)
    let nl = this.pending.indexOf('\n')
    while (nl >= 0) {
      const line = this.pending.slice(0, nl)
      this.pending = this.pending.slice(nl + 1)
      if (this.skipping) this.skipping = false
      else this.onLine(line)
      nl = this.pending.indexOf('\n')
    }
    if (this.pending.length > MAX_WATCHED_LINE) {
      this.pending = ''
      this.skipping = true
    }
  }

  /** The last line when the output did not end with a newline. */
  rest(): string | null {
    return this.pending && !this.skipping ? this.pending : null
  }
}

/** Stops a process group once: SIGTERM, then SIGKILL after the grace period. */
class GroupStop {
  killing = false

  constructor(
    private readonly pid: () => number | undefined,
    private readonly graceMs: number
  ) {}

  terminate(): void {
    if (this.killing) return
    this.killing = true
    killGroup(this.pid(), 'SIGTERM')
    setTimeout(() => killGroup(this.pid(), 'SIGKILL'), this.graceMs).unref()
  }
}

/** A finished or failed process and what it may have left behind. */
interface Leftovers {
  pid: number | undefined
  opts: Pick<RunOptions, 'callId' | 'sweep'>
  cgroup: CallCgroup | null
  exited: boolean
}

/**
 * Whatever the process left behind in its group, under its marker or in its cgroup dies with the
 * call; with a user of its own, everything of that user when it exits (see RunOptions.sweep).
 */
function reapLeftovers({ pid, opts, cgroup, exited }: Leftovers): void {
  killGroup(pid, 'SIGKILL')
  if (opts.sweep) {
    if (exited) opts.sweep()
  } else if (opts.callId) killCallProcesses(opts.callId)
  cgroup?.killAll()
}

/** Why a process was stopped by loopgate, as the result reports it. */
interface StopCauses {
  timedOut: boolean
  aborted: boolean
  killedByWatcher: boolean
}

/** The timeout and the abort signal stop the group; returns the clean-up for when the process is gone. */
function armStops(opts: RunOptions, stop: GroupStop, causes: StopCauses): () => void {
  const timer =
    opts.timeoutMs && opts.timeoutMs > 0
      ? setTimeout(() => {
          causes.timedOut = true
          stop.terminate()
        }, opts.timeoutMs)
      : undefined
  const onAbort = (): void => {
    causes.aborted = true
    stop.terminate()
  }
  if (opts.signal) {
    if (opts.signal.aborted) onAbort()
    else opts.signal.addEventListener('abort', onAbort, { once: true })
  }
  return () => {
    if (timer) clearTimeout(timer)
    opts.signal?.removeEventListener('abort', onAbort)
  }
}

/** Reads stdout's lines for the watcher: a line it answers `kill` to stops the group. */
function lineWatcher(opts: RunOptions, stop: GroupStop, causes: StopCauses): LineReader | null {
  const watch = opts.onStdoutLine
  if (!watch) return null
  return new LineReader((line) => {
    if (stop.killing || watch(line) !== 'kill') return
    causes.killedByWatcher = true
    stop.terminate()
  })
}

/** Spawns the process in a group of its own: through its launcher, then into its cgroup. */
function spawnStart(opts: RunOptions, cgroup: CallCgroup | null): ChildProcessWithoutNullStreams {
  const env = opts.callId ? { ...opts.env, LOOPGATE_CALL_ID: opts.callId } : { ...opts.env }
  const launched = (opts.launch ?? ((s: ProcessStart) => s))({ command: opts.command, args: opts.args, env, uid: opts.uid, gid: opts.gid })
  const start = cgroup ? cgroup.wrap(launched.command, launched.args) : launched
  return spawn(start.command, start.args, { cwd: opts.cwd, env: launched.env, detached: true, stdio: 'pipe', uid: launched.uid, gid: launched.gid })
}

/**
 * Runs one process in its own process group. On timeout, abort or a watcher's request the whole
 * group gets SIGTERM, then SIGKILL after the grace period; processes that escaped the group but
 * carry the call marker are killed too.
 */
export function runProcess(opts: RunOptions): Promise<RunResult> {
  const started = Date.now()
  const max = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT
  const cgroup = opts.contain ? CallCgroup.create(`loopgate-${process.pid}-${opts.callId ?? randomUUID()}`) : null
  return new Promise<RunResult>((resolve) => {
    const child = spawnStart(opts, cgroup)
    const stdout = new TailBuffer(max)
    const stderr = new TailBuffer(max)
    const causes: StopCauses = { timedOut: false, aborted: false, killedByWatcher: false }
    const stop = new GroupStop(() => child.pid, opts.killGraceMs ?? 2000)
    const disarm = armStops(opts, stop, causes)
    const watch = opts.onStdoutLine
    const lines = lineWatcher(opts, stop, causes)
    let spawnError: Error | undefined
    child.stdout.on('data', (bytes: Buffer) => {
      stdout.push(bytes)
      lines?.push(bytes)
    })
    child.stderr.on('data', (bytes: Buffer) => stderr.push(bytes))
    child.stdin.on('error', () => undefined)
    child.on('error', (err) => {
      spawnError = err
      if (child.pid === undefined) finish(null, null)
    })
    child.stdin.end(opts.stdin)
    child.on('exit', () => {
      // A descendant that still holds the pipes open cannot keep the call alive.
      reapLeftovers({ pid: child.pid, opts, cgroup, exited: true })
      setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 1000).unref()
    })
    child.on('close', (code, sig) => finish(code, sig))
    let settled = false
    function finish(code: number | null, sig: NodeJS.Signals | null): void {
      if (settled) return
      settled = true
      disarm()
      const rest = lines?.rest()
      if (watch && rest && !stop.killing) watch(rest)
      reapLeftovers({ pid: child.pid, opts, cgroup, exited: false })
      const err = spawnError ? `${spawnError.message}\n` : ''
      const notStarted = spawnError && child.pid === undefined ? ((spawnError as NodeJS.ErrnoException).code ?? 'spawn failed') : undefined
      resolve({
        exitCode: code,
        signal: sig,
        stdout: stdout.value(),
        stderr: `${stderr.value()}${err}`,
        ...causes,
        durationMs: Date.now() - started,
        ...(notStarted ? { notStarted } : {})
      })
    }
  })
}

/** How a process ended, in the words the attempt log uses: `exit code 3` or `killed by SIGTERM`. */
export function exitDescription(r: Pick<RunResult, 'exitCode' | 'signal'>): string {
  return r.exitCode === null ? `killed by ${r.signal}` : `exit code ${r.exitCode}`
}
