import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import path from 'node:path'
import { commandLine, gitEnv, GitError } from './command-line.js'

/** The header of an object `cat-file --batch` found; any other header line is the whole answer (`<spec> missing`). */
const FOUND = /^[0-9a-f]{40,64} (?:blob|tree|commit|tag) (\d+)$/

/** One read in flight: how many answers it waits for, and the bytes of those it has. */
interface Pending {
  left: number
  chunks: Buffer[]
  resolve: (data: Buffer) => void
  reject: (err: Error) => void
}

/** One `cat-file --batch` process and the reads it owes, in the order they were written. */
interface Batch {
  child: ChildProcessWithoutNullStreams
  pending: Pending[]
  buffer: Buffer
  stderr: string
}

/**
 * One long-lived `git cat-file --batch` on a repository given by its git directory alone (the
 * gate's private repository): each read's specs (`<oid>` or `<commit>:<path>`) answered in order,
 * as the raw bytes git writes, `missing` lines included. The process starts on the first read (and
 * again after one failed) and keeps the run alive only while a read waits; close() ends it.
 */
export class ObjectStream {
  private batch: Batch | null = null

  constructor(private readonly gitDir: string) {}

  read(specs: readonly string[]): Promise<Buffer> {
    if (specs.length === 0) return Promise.resolve(Buffer.alloc(0))
    if (specs.some((s) => s.includes('\n'))) return Promise.reject(new Error('an object name with a line break'))
    const batch = this.started()
    return new Promise((resolve, reject) => {
      if (batch.pending.length === 0) holdRun(batch, true)
      batch.pending.push({ left: specs.length, chunks: [], resolve, reject })
      batch.child.stdin.write(specs.map((s) => `${s}\n`).join(''))
    })
  }

  /** Ends the process once it has answered what is in flight. */
  close(): void {
    this.batch?.child.stdin.end()
    this.batch = null
  }

  private started(): Batch {
    if (this.batch) return this.batch
    const args = ['--git-dir', this.gitDir, 'cat-file', '--batch']
    const cwd = path.dirname(this.gitDir)
    const child = spawn('git', commandLine(args, { cwd }), { cwd, env: gitEnv(), stdio: ['pipe', 'pipe', 'pipe'] })
    const batch: Batch = { child, pending: [], buffer: Buffer.alloc(0), stderr: '' }
    this.batch = batch
    child.stdout.on('data', (chunk: Buffer) => answer(batch, chunk))
    child.stderr.on('data', (chunk: Buffer) => (batch.stderr = (batch.stderr + chunk.toString('utf8')).slice(-4000)))
    // A write after git exited fails here; the exit below fails the reads.
    child.stdin.on('error', () => undefined)
    const failed = (err: Error): void => {
      if (this.batch === batch) this.batch = null
      for (const p of batch.pending.splice(0)) p.reject(err)
    }
    child.on('error', failed)
    child.on('close', (code) => failed(new GitError(args, { stdout: '', stderr: batch.stderr || 'git cat-file ended', exitCode: code ?? 1 })))
    holdRun(batch, false)
    return batch
  }
}

/** Whether the process (and its output) keeps Node running: only while a read waits for it. */
function holdRun(batch: Batch, hold: boolean): void {
  for (const handle of [batch.child, batch.child.stdin, batch.child.stdout, batch.child.stderr] as { ref?: () => void; unref?: () => void }[]) {
    if (hold) handle.ref?.()
    else handle.unref?.()
  }
}

/** Hands each read its answers once they are all in. */
function answer(batch: Batch, chunk: Buffer): void {
  batch.buffer = batch.buffer.length ? Buffer.concat([batch.buffer, chunk]) : chunk
  for (;;) {
    const current = batch.pending[0]
    const eol = batch.buffer.indexOf(0x0a)
    if (!current || eol < 0) return
    const found = FOUND.exec(batch.buffer.subarray(0, eol).toString('latin1'))
    const end = found ? eol + 1 + Number(found[1]) + 1 : eol + 1
    if (batch.buffer.length < end) return
    current.chunks.push(batch.buffer.subarray(0, end))
    batch.buffer = batch.buffer.subarray(end)
    if (--current.left > 0) continue
    batch.pending.shift()
    current.resolve(Buffer.concat(current.chunks))
    if (batch.pending.length === 0) holdRun(batch, false)
  }
}
