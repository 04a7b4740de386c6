import type { BotBump } from '../../bot-pr/bot-bump.js'
import { gatePassesOnTheBump } from '../../bot-pr/bot-outcome.js'
import { FIX_DEPENDENCY_PR_PROMPT } from '../../bot-pr/bot-settings.js'
import type { DependencyReferenceOptions } from '../../gate/dependencies/dependency-trust.js'
import type { TaskSpec } from '../task-spec.js'

/** A dependency bot's bump (its pull request's head) as the dependencies the gate trusts, and as the bump the agent fixes forward. */
function botBumpReference(bot: BotBump): DependencyReferenceOptions {
  const names = bot.packages.map((p) => p.name)
  return {
    commit: bot.headCommit,
    pinned: names,
    bump: { before: bot.baseCommit, ...(names.length === 1 ? { package: names[0] } : {}), label: "the bot's bump in this pull request" }
  }
}

/**
 * `task: fix-dependency-pr`: the agent makes the gate pass on a dependency bot's pull request,
 * keeping its bump; a gate that passes on the bot's head already means the failed check was not the gate's.
 */
export const fixDependencyPr: TaskSpec = {
  name: 'fix-dependency-pr',
  prompt: FIX_DEPENDENCY_PR_PROMPT,
  // The baseline decides whether to call the agent at all.
  baseline: { alongside: false, onBump: false, fromResumedBase: true },
  bumpCommit: ({ botBump }) => botBump?.headCommit,
  dependencyReference: ({ botBump }, resumedBase) => (botBump ? botBumpReference(botBump) : { commit: resumedBase }),
  passingBump: ({ botBump }, passed) => (botBump && passed.verdict.passed ? gatePassesOnTheBump({ bump: botBump, ...passed }) : undefined),
  loopTask: (_work, settings) => settings.prompt
}
