import { randomUUID } from 'node:crypto'
import { chownSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { withReportChannel, type ChannelRunner } from './report-channel.js'
import { TEST_RUNNERS } from './runner-registry.js'

/** loopgate's report channel for one gate run: the command that writes it, and the file it reads. */
export interface OpenChannel {
  runner: ChannelRunner
  command: string
  /** The report file (absolute): written by the runner, read by loopgate once the gate user's processes are gone. */
  file: string
  /** Set when the command runs only the tests asked for: the runner and the filter's options. */
  narrowedBy?: string
  /** Removes the folder (after the verdict). */
  close(): void
}

/** The `package.json` scripts of the checkout (for `npm test`), or none. */
function scriptsOf(checkout: string): Record<string, unknown> | undefined {
  try {
    const manifest = JSON.parse(readFileSync(path.join(checkout, 'package.json'), 'utf8')) as { scripts?: unknown }
    return typeof manifest.scripts === 'object' && manifest.scripts !== null ? (manifest.scripts as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/** Where the channel's folder goes, who writes it, and the tests to run alone (a rerun's), if any. */
export interface ChannelPlace {
  gateDir: string
  checkout: string
  user?: AgentUser
  only?: readonly string[]
}

/**
 * Opens loopgate's report channel for a gate command whose runner it knows: a fresh folder with a
 * name no one could know before the run, outside the checkout (so nothing in the tree can be
 * there first), the gate user's only for the run. Null when the runner is not one loopgate knows.
 * With `only`, the runner's filter for those tests goes beside the report option when it has one.
 */
export function openReportChannel(command: string, where: ChannelPlace): OpenChannel | null {
  const dir = path.join(where.gateDir, `report-${randomUUID()}`)
  const probe = withReportChannel(command, path.join(dir, 'report'), scriptsOf(where.checkout))
  if (!probe) return null
  const file = path.join(dir, probe.runner === 'jest' || probe.runner === 'vitest' ? 'report.json' : 'report.xml')
  const runner = TEST_RUNNERS.find((r) => r.id === probe.runner)
  const extra = where.only?.length ? (runner?.only?.(where.only, where.checkout) ?? null) : null
  const channel = withReportChannel(command, { file, extra: extra ?? [] }, scriptsOf(where.checkout))!
  mkdirSync(dir, { mode: 0o700 })
  if (where.user) chownSync(dir, where.user.uid, where.user.gid)
  const narrowedBy = extra ? `${probe.runner}, ${extra.join(' ')}`.slice(0, 300) : undefined
  return { runner: channel.runner, command: channel.command, file, narrowedBy, close: () => rmSync(dir, { recursive: true, force: true }) }
}
