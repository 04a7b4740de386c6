import path from 'node:path'
import { readAgentText, writeTreeFile } from '../fs/tree.js'
import type { StopReason } from '../loop/stop-reasons.js'

/** The agent writes notes here too; more than this is not read back (the tail is kept on append). */
const MAX_PROGRESS_BYTES = 1024 * 1024

/**
 * The notes file carried between fresh-context iterations, in the workspace: loopgate appends one
 * line per iteration. The agent can write it, so loopgate reads it only as bounded data and writes
 * it as a fresh regular file (a symlink, FIFO or symlinked folder planted there is replaced, never
 * followed). It is never a record: the stop reason loopgate trusts is in its own attempt log.
 */
export class ProgressFile {
  readonly file: string

  /** `root` is the workspace, trusted as a path; `rel` is the file inside it. */
  constructor(
    private readonly root: string,
    private readonly rel: string
  ) {
    this.file = path.join(root, rel)
  }

  /** Creates the file (and its folder) so the agent can add notes from the first call on. */
  ensure(): void {
    if (readAgentText(this.root, this.rel, MAX_PROGRESS_BYTES) === null) this.write('')
  }

  read(): string {
    return readAgentText(this.root, this.rel, MAX_PROGRESS_BYTES) ?? ''
  }

  append(line: string): void {
    let current = this.read()
    if (current.length > MAX_PROGRESS_BYTES / 2) current = current.slice(-MAX_PROGRESS_BYTES / 2)
    const sep = current === '' || current.endsWith('\n') ? '' : '\n'
    this.write(`${current}${sep}${line.replace(/\n/g, ' ')}\n`)
  }

  /** The last line, always written by loopgate, names the control that fired. */
  appendStop(reason: StopReason): void {
    this.append(stopLine(reason))
  }

  private write(text: string): void {
    writeTreeFile({ root: this.root, rel: this.rel, data: text })
  }
}

function stopLine(reason: StopReason): string {
  return `stop-reason: ${reason}`
}

/** The stop reason named by the file's last line, if it is one of ours. */
export function lastStopReason(text: string): string | null {
  const lines = text.trimEnd().split('\n')
  const last = lines[lines.length - 1] ?? ''
  const match = /^stop-reason: (\S+)$/.exec(last)
  return match ? match[1] : null
}
