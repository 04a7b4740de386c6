import { randomUUID } from 'node:crypto'
import { chownSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { withReportChannel, type ChannelRunner } from './report-channel.js'
import { runnersInCommand } from './command-runners.js'
import { placeWriter } from './result-writer.js'
import { TEST_RUNNERS } from './runner-registry.js'
import { placeRunnerPreload } from './runner-preload.js'

/** loopgate's report channel for one gate run: the command that writes it, and the file it reads. */
interface OpenChannel {
  runner: ChannelRunner
  command: string
  /** The environment the command runs with: the gate's, with the runner's report options added. */
  env?: Record<string, string>
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
interface ChannelPlace {
  gateDir: string
  checkout: string
  user?: AgentUser
  only?: readonly string[]
  /** The gate's environment, which the runner's report options are added to. */
  env?: NodeJS.ProcessEnv
}

/** How an option joins a value the gate's environment already has. */
const JOINED: Record<string, string> = { NODE_OPTIONS: ' ', PYTEST_ADDOPTS: ' ', PYTHONPATH: ':' }

/** The channel's environment options added to the gate's own: after what is there, never instead. */
export function channelEnv(base: NodeJS.ProcessEnv, added: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!added) return undefined
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(added)) env[name] = base[name] ? `${base[name]}${JOINED[name] ?? ' '}${value}` : value
  return env
}

/** The runners loopgate knows that the gate command starts (directly or through the checkout's package scripts). */
export function runnersNamed(command: string, checkout: string): string[] {
  return runnersInCommand(command, scriptsOf(checkout))
}

/**
 * Opens loopgate's report channel for a gate command whose runner it knows: a fresh folder with a
 * name no one could know before the run, outside the checkout (so nothing in the tree can be
 * there first), the gate user's only for the run. Null when the runner is not one loopgate knows.
 * With `only`, the runner's filter for those tests goes beside the report option when it has one.
 */
export function openReportChannel(command: string, where: ChannelPlace): OpenChannel | null {
  const dir = path.join(where.gateDir, `report-${randomUUID()}`)
  const probe = withReportChannel(command, { file: path.join(dir, 'report'), preload: 'probe' }, scriptsOf(where.checkout))
  if (!probe) return null
  const file = path.join(dir, probe.runner === 'jest' || probe.runner === 'vitest' ? 'report.json' : 'report.xml')
  const runner = TEST_RUNNERS.find((r) => r.id === probe.runner)
  const extra = where.only?.length ? (runner?.only?.(where.only, where.checkout) ?? null) : null
  const channel = withReportChannel(command, { file, extra: extra ?? [], preload: placeRunnerPreload(where.gateDir) }, scriptsOf(where.checkout))!
  mkdirSync(dir, { mode: 0o700 })
  if (channel.writer) placeWriter(file)
  if (where.user) chownSync(dir, where.user.uid, where.user.gid)
  const narrowedBy = extra && !channel.unfiltered ? `${probe.runner}, ${extra.join(' ')}`.slice(0, 300) : undefined
  const env = channelEnv(where.env ?? {}, channel.env)
  return { runner: channel.runner, command: channel.command, env, file, narrowedBy, close: () => rmSync(dir, { recursive: true, force: true }) }
}
