import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { StringDecoder } from 'node:string_decoder'
import { CallCgroup } from './cgroup.js'
import { killCallProcesses } from './reap.js'

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
}

const DEFAULT_MAX_OUTPUT = 2_000_000
/** A stdout line longer than this is not handed to onStdoutLine (memory stays bounded). */
export const MAX_WATCHED_LINE = 4_000_000

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

/**
 * Runs one process in its own process group. On timeout, abort or a watcher's request the whole
 * group gets SIGTERM, then SIGKILL after the grace period; processes that escaped the group but
 * carry the call marker are killed too.
 */
export function runProcess(opts: RunOptions): Promise<RunResult> {
  const started = Date.now()
  const max = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT
  const grace = opts.killGraceMs ?? 2000
  const env = { ...opts.env }
  if (opts.callId) env.LOOPGATE_CALL_ID = opts.callId
  const cgroup = opts.contain ? CallCgroup.create(`loopgate-${process.pid}-${opts.callId ?? randomUUID()}`) : null
  const start = cgroup ? cgroup.wrap(opts.command, opts.args) : { command: opts.command, args: opts.args }
  return new Promise<RunResult>((resolve) => {
    const child = spawn(start.command, start.args, {
      cwd: opts.cwd,
      env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      uid: opts.uid,
      gid: opts.gid
    })
    const stdout = new TailBuffer(max)
    const stderr = new TailBuffer(max)
    let timedOut = false
    let aborted = false
    let killedByWatcher = false
    let killing = false
    let pending = ''
    /** Inside an overlong line: dropped up to its end. */
    let skipping = false
    let spawnError: Error | undefined

    const terminate = (): void => {
      if (killing) return
      killing = true
      killGroup(child.pid, 'SIGTERM')
      const hard = setTimeout(() => killGroup(child.pid, 'SIGKILL'), grace)
      hard.unref()
    }
    const timer = opts.timeoutMs && opts.timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true
          terminate()
        }, opts.timeoutMs)
      : undefined
    const onAbort = (): void => {
      aborted = true
      terminate()
    }
    if (opts.signal) {
      if (opts.signal.aborted) onAbort()
      else opts.signal.addEventListener('abort', onAbort, { once: true })
    }

    const decoder = new StringDecoder('utf8')
    child.stdout.on('data', (bytes: Buffer) => {
      stdout.push(bytes)
      if (!opts.onStdoutLine) return
      const chunk = decoder.write(bytes)
      pending += chunk
      let nl = pending.indexOf('\n')
      while (nl >= 0) {
        const line = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        if (skipping) skipping = false
        else if (!killing && opts.onStdoutLine(line) === 'kill') {
          killedByWatcher = true
          terminate()
        }
        nl = pending.indexOf('\n')
      }
      if (pending.length > MAX_WATCHED_LINE) {
        pending = ''
        skipping = true
      }
    })
    child.stderr.on('data', (bytes: Buffer) => stderr.push(bytes))
    child.stdin.on('error', () => undefined)
    child.on('error', (err) => {
      spawnError = err
      if (child.pid === undefined) finish(null, null)
    })
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin)
    else child.stdin.end()

    child.on('exit', () => {
      // Whatever the process left behind in its group or under its marker dies with the call,
      // and a descendant that still holds the pipes open cannot keep the call alive.
      killGroup(child.pid, 'SIGKILL')
      if (opts.callId) killCallProcesses(opts.callId)
      cgroup?.killAll()
      const drain = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 1000)
      drain.unref()
    })
    child.on('close', (code, sig) => finish(code, sig))
    let settled = false
    function finish(code: number | null, sig: NodeJS.Signals | null): void {
      if (settled) return
      settled = true
      if (timer) clearTimeout(timer)
      opts.signal?.removeEventListener('abort', onAbort)
      if (pending && !skipping && opts.onStdoutLine && !killing) opts.onStdoutLine(pending)
      killGroup(child.pid, 'SIGKILL')
      if (opts.callId) killCallProcesses(opts.callId)
      cgroup?.killAll()
      resolve({
        exitCode: code,
        signal: sig,
        stdout: stdout.value(),
        stderr: spawnError ? `${stderr.value()}${spawnError.message}\n` : stderr.value(),
        timedOut,
        aborted,
        killedByWatcher,
        durationMs: Date.now() - started
      })
    }
  })
}

/** How a process ended, in the words the attempt log uses: `exit code 3` or `killed by SIGTERM`. */
export function exitDescription(r: Pick<RunResult, 'exitCode' | 'signal'>): string {
  return r.exitCode === null ? `killed by ${r.signal}` : `exit code ${r.exitCode}`
}
