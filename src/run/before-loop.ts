import { LOCAL_AUTHOR } from '../git/author.js'
import { gateEnv } from '../agents/agent-env.js'
import { missingCredential } from './missing-credential.js'
import { fetchedRunner, missingGateProgram } from '../gate/open.js'
import type { Settings } from '../settings.js'
import type { PreflightStop } from '../publish/publisher-types.js'
import { packageManagerEnv } from '../upgrade/environment.js'
import { prepareUpgrade } from '../upgrade/prepare.js'
import type { GitRepository } from '../git/repository.js'
import type { RunContext } from './context.js'
import { earlierGiveUp, identityWhenAsked, type LaterIdentity } from './give-up-memory.js'
import type { BotBump } from '../bot-pr/bot-bump.js'
import { readyBotPull, type BotPullReady } from '../bot-pr/fix-pull.js'

type Upgrade = Awaited<ReturnType<typeof prepareUpgrade>>

export interface BeforeLoop {
  settings: Settings
  /** Set when the run ends here: the event, review capacity, nothing to upgrade. */
  stop: PreflightStop | null
  upgrade: Upgrade | null
  notes: string[]
  /** The task's identity, for remembering a give-up (none for a dependency upgrade: its attempts are remembered). */
  identity?: LaterIdentity
  /** task: fix-dependency-pr: the bot's bump, which the agent's work must keep. */
  botBump?: BotBump
}

/** What is missing for the run to spend anything usefully: a model credential, the gate's program. */
function setupProblem(settings: Settings, ctx: RunContext): PreflightStop | null {
  const credential = missingCredential(settings)
  if (credential) return { stopReason: 'config-error', notes: [credential] }
  const ownUser = process.getuid?.() === 0 && ctx.isolation !== 'weak' && ctx.env.LOOPGATE_ISOLATION !== 'weak'
  const program = missingGateProgram(settings, { path: gateEnv(ctx.env, settings.agentEnv).PATH, workspace: settings.workspace, ownUser })
  if (program) return { stopReason: 'gate-broken', notes: [program] }
  const fetching = fetchedRunner(settings, settings.workspace)
  if (fetching) return { stopReason: 'gate-broken', notes: [fetching] }
  return null
}

/**
 * Everything decided before the gate and any agent call: the publisher's preflight (the event,
 * who started it, review capacity), the commit author (commit-author, else the token's own
 * identity, looked up only for a run that goes on), and for a dependency upgrade the pick and the
 * bump, as loopgate's own commit.
 */
export async function beforeTheLoop(settings: Settings, ctx: RunContext, repository: GitRepository): Promise<BeforeLoop> {
  // A dependency bot's pull request is checked out (or refused) before the publisher writes to it.
  const bot = settings.task === 'fix-dependency-pr' ? await readyBotPull(settings, { env: ctx.env, warn: ctx.report, repository }) : null
  if (bot?.kind === 'stop') return { settings, stop: { stopReason: bot.stopReason, notes: bot.notes }, upgrade: null, notes: [] }
  const preflight = (await ctx.publisher.preflight?.(settings)) ?? null
  if (preflight) return { settings, stop: preflight, upgrade: null, notes: [] }
  const unready = setupProblem(settings, ctx)
  if (unready) return { settings, stop: unready, upgrade: null, notes: [] }
  if (settings.task !== 'dependency-upgrade') return beforeTheTask(bot ? { ...settings, prompt: bot.prompt } : settings, { ctx, bot, repository })
  const authored = { ...settings, commitAuthor: settings.commitAuthor ?? (await ctx.publisher.commitAuthor?.()) ?? LOCAL_AUTHOR }
  const upgrade = await prepareUpgrade(authored, {
    attempts: ctx.carry?.upgradeAttempts ?? [],
    env: packageManagerEnv(ctx.env, authored.agentEnv),
    runId: ctx.runId,
    signal: ctx.signal,
    repository
  })
  return { settings: authored, stop: upgrade.kind === 'stop' ? upgrade : null, upgrade, notes: upgrade.notes }
}

/** A prompt's task (a bot's pull request's among them): an earlier give-up, and the author. */
async function beforeTheTask(
  settings: Settings,
  { ctx, bot, repository }: { ctx: RunContext; bot: BotPullReady | null; repository: GitRepository }
): Promise<BeforeLoop> {
  // The base is read now, before the run commits anything; the protected tests' hash, a read of the
  // whole tree, is needed before the loop only against an earlier give-up, else only if this run gives up.
  const base = ctx.carry?.baseCommit || (await repository.head())
  const identity = identityWhenAsked(settings, repository, base)
  const record = ctx.carry?.gaveUp
  const gaveUp = record ? earlierGiveUp(await identity(), record, settings.commentCommand) : null
  if (gaveUp) return { settings, stop: gaveUp, upgrade: null, notes: [] }
  const authored = { ...settings, commitAuthor: settings.commitAuthor ?? (await ctx.publisher.commitAuthor?.()) ?? LOCAL_AUTHOR }
  return { settings: authored, stop: null, upgrade: null, notes: bot?.notes ?? [], identity, botBump: bot?.bump }
}
