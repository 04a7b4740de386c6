import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { StopReason } from './stop-reasons.js'

/** The notes file carried between fresh-context iterations. loopgate appends one line per iteration. */
export class ProgressFile {
  constructor(readonly file: string) {}

  /** Creates the file (and its folder) so the agent can add notes from the first call on. */
  ensure(): void {
    mkdirSync(path.dirname(this.file), { recursive: true })
    if (!existsSync(this.file)) appendFileSync(this.file, '')
  }

  read(): string {
    try {
      return readFileSync(this.file, 'utf8')
    } catch {
      return ''
    }
  }

  append(line: string): void {
    mkdirSync(path.dirname(this.file), { recursive: true })
    const current = existsSync(this.file) ? readFileSync(this.file, 'utf8') : ''
    const sep = current === '' || current.endsWith('\n') ? '' : '\n'
    appendFileSync(this.file, `${sep}${line.replace(/\n/g, ' ')}\n`)
  }

  /** The last line, always written by loopgate, names the control that fired. */
  appendStop(reason: StopReason): void {
    this.append(stopLine(reason))
  }
}

export function stopLine(reason: StopReason): string {
  return `stop-reason: ${reason}`
}

/** The stop reason named by the file's last line, if it is one of ours. */
export function lastStopReason(text: string): string | null {
  const lines = text.trimEnd().split('\n')
  const last = lines[lines.length - 1] ?? ''
  const match = /^stop-reason: (\S+)$/.exec(last)
  return match ? match[1] : null
}
