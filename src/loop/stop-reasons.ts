/**
 * The closed set of reasons a run ends for, as one table. Every run ends with exactly one.
 *
 * Each row holds what every other module derives from it: the exit status of the local CLI
 * (written out, never computed from the order: a released code never changes, and a new reason
 * takes a new number), the `outcome` output, whether a person is asked to decide (an escalation
 * issue or comment), and the words shown to people (which control fired, what they can change, and
 * the one decision a maintainer is asked to make, from what the attempts showed).
 */

export type Outcome = 'verified' | 'escalated' | 'stopped' | 'skipped'

/** Escalating reasons have the outcome `escalated` (`stopped` when escalation is off); no other does. */
type Disposition = { outcome: 'escalated'; escalates: true } | { outcome: Exclude<Outcome, 'escalated'>; escalates: false }

type StopReasonEntry = Disposition & {
  /** Exit status of the local CLI. Unique; never changed once released. */
  exitCode: number
  /** Which control fired, in plain words (the summary line). */
  what: string
  /** What a person can change. */
  action: string
  /**
   * The one decision a maintainer is asked to make, in their terms: what to change in the base, or
   * what to tell the agent on a retry.
   */
  decision: (seen: AttemptFacts) => string
}

/** What the attempts showed, for a decision's words: each text already quoted for the page, null when there is none. */
export interface AttemptFacts {
  attempts: number
  /** The first failing test of the last verdict. */
  firstFailure: string | null
  /** The protected paths the agent changed, as a short list. */
  protectedPaths: string | null
  /** Why the last agent call failed. */
  agentFailure: string | null
  /** The reason the agent gave for asking for a person. */
  gaveUpReason: string | null
  /** What the model provider said when it refused or failed the last call. */
  providerSaid: string | null
  /** The tests seen flaky, as a short list. */
  flaky: string | null
  /** The tests failing on the base too, as a short list. */
  failingOnBase: string | null
}

/** The decision of a reason that asks for no particular change. */
const retryOrTakeOver = (reason: string) => (): string =>
  `the loop stopped with \`${reason}\`: decide whether to retry with more context or to take the task over.`

export const STOP_REASON_TABLE = {
  verified: {
    exitCode: 0,
    outcome: 'verified',
    escalates: false,
    what: 'The protected gate passed on a non-empty change set.',
    action: 'Review the pull request; a passing gate is only as good as the tests behind it.',
    decision: retryOrTakeOver('verified')
  },
  'max-iterations': {
    exitCode: 11,
    outcome: 'escalated',
    escalates: true,
    what: 'The outer loop reached `max-iterations` without a passing gate.',
    action: 'Split the task into smaller pieces, or raise `max-iterations` if each attempt made real progress.',
    decision: ({ attempts, firstFailure }) =>
      `${attempts} attempts did not pass the gate${firstFailure ? ` (still failing: ${firstFailure})` : ''}: retry with a narrower task or the missing context, or raise \`max-iterations\` if each attempt made progress.`
  },
  'spend-ceiling': {
    exitCode: 12,
    outcome: 'escalated',
    escalates: true,
    what: 'Starting another call could have pushed this run past `spend-ceiling-usd`.',
    action: 'Raise `spend-ceiling-usd`, lower `call-budget-usd`, or narrow the task.',
    decision: ({ firstFailure }) =>
      `the budget ran out with the gate still failing${firstFailure ? ` (${firstFailure})` : ''}: raise \`spend-ceiling-usd\` to let it go on, or narrow the task.`
  },
  'period-ceiling': {
    exitCode: 13,
    outcome: 'escalated',
    escalates: true,
    what: 'The rolling spend over `period-hours` left no room for another call under `period-ceiling-usd`.',
    action: 'Wait for the window to roll, or raise `period-ceiling-usd`.',
    decision: ({ firstFailure }) =>
      `the budget ran out with the gate still failing${firstFailure ? ` (${firstFailure})` : ''}: raise \`period-ceiling-usd\` to let it go on, or narrow the task.`
  },
  'time-limit': {
    exitCode: 14,
    outcome: 'escalated',
    escalates: true,
    what: 'The run reached `time-limit-minutes`.',
    action: "Raise `time-limit-minutes` (below the job's `timeout-minutes`), or split the task.",
    decision: () => "the run reached `time-limit-minutes` with the gate still failing: raise it (below the job's timeout), or split the task."
  },
  'no-progress': {
    exitCode: 15,
    outcome: 'escalated',
    escalates: true,
    what: 'Several iterations in a row left the code unchanged (`no-progress-limit`).',
    action: 'Make the task more specific, or check that the agent can run the tools it needs.',
    decision: () => 'the agent changed nothing in several attempts in a row: check that it can run the tools it needs, or retry with a more specific task.'
  },
  'same-failure': {
    exitCode: 16,
    outcome: 'escalated',
    escalates: true,
    what: 'The gate failed the same way after new changes (`same-failure-limit`): retrying brought no new evidence.',
    action: 'Read the failing tests below; fix a flaky test, or give the agent the missing context.',
    decision: ({ firstFailure }) =>
      `${firstFailure ?? 'the gate'} failed the same way after new changes: fix or quarantine it in the base if it is wrong or flaky, or retry with the context the agent is missing.`
  },
  'protected-tampering': {
    exitCode: 17,
    outcome: 'escalated',
    escalates: true,
    what: 'The agent changed protected tests or test configuration again after being told it may not.',
    action: 'Check whether the task needs the tests changed; if so, change them yourself first.',
    decision: ({ protectedPaths }) =>
      `the task needs ${protectedPaths ?? 'protected tests or test configuration'} changed, which the agent may not do: change it in the base, or retry with what the agent is missing.`
  },
  'agent-failure': {
    exitCode: 18,
    outcome: 'escalated',
    escalates: true,
    what: 'The agent process failed several calls in a row (errors, refusals, crashes or timeouts).',
    action: 'Check the API key, the model name in `agent-args`, and the agent output in the attempt log.',
    decision: ({ agentFailure }) =>
      `the agent's process failed call after call${agentFailure ? ` (${agentFailure})` : ''}: check the API key, the model and the agent output in the attempt log, then retry.`
  },
  cancelled: {
    exitCode: 19,
    outcome: 'escalated',
    escalates: true,
    what: 'The run was cancelled; the in-flight call was charged and the log flushed.',
    action: 'Re-run the workflow; the next run resumes from the work-in-progress branch.',
    decision: () => 'the run was cancelled before it finished: retry to resume from the unfinished work.'
  },
  'review-capacity': {
    exitCode: 20,
    outcome: 'skipped',
    escalates: false,
    what: 'This loop already has `max-open-prs` open pull requests, or this pull request already had `max-runs-per-pr` loop runs; nothing was spent.',
    action: 'Review or close the open loop pull requests (or the pull request itself), or raise `max-open-prs` / `max-runs-per-pr`.',
    decision: retryOrTakeOver('review-capacity')
  },
  'nothing-to-do': {
    exitCode: 21,
    outcome: 'skipped',
    escalates: false,
    what: 'No change was made: the run was skipped before any work (its summary says why), or the agent found nothing to change and the gate passes.',
    action: 'For a skip, follow its note (e.g. list the account in `allow-users`); otherwise nothing, the next run tries again.',
    decision: retryOrTakeOver('nothing-to-do')
  },
  'state-corrupt': {
    exitCode: 22,
    outcome: 'stopped',
    escalates: false,
    what: 'The saved loop state could not be read; nothing was spent.',
    action: 'Delete the `loopgate-<loop-id>-` cache entries, or fix the state shown in the log.',
    decision: retryOrTakeOver('state-corrupt')
  },
  'config-error': {
    exitCode: 23,
    outcome: 'stopped',
    escalates: false,
    what: 'An input was invalid; nothing was spent.',
    action: 'Fix the input named in the error message.',
    decision: retryOrTakeOver('config-error')
  },
  'gate-broken': {
    exitCode: 24,
    outcome: 'stopped',
    escalates: false,
    what: 'The gate gave no result to compare with on the base itself (a setup step failed, the test runner could not start, or its tests could not be counted); nothing was spent, or only the first call, ended as soon as the baseline running alongside it failed.',
    action:
      'Make `gate-setup` and `gate-command` run and count their tests on the base branch (the attempt log shows what failed), or fix the environment they need.',
    decision: () => 'the gate does not run on the base itself: fix `gate-setup` or `gate-command` (the attempt log shows what failed), then retry.'
  },
  'agent-gave-up': {
    exitCode: 25,
    outcome: 'escalated',
    escalates: true,
    what: 'The agent asked for a person through its documented exit (`give-up.md`), and the gate did not pass.',
    action: 'Read its reason in the escalation: change the task, the base or the tests it names, then retry.',
    decision: ({ gaveUpReason }) =>
      `the agent asked for a person: ${gaveUpReason ?? 'it gave no reason'}. Decide whether the task, the base or the tests must change, then retry with your answer.`
  },
  'provider-unavailable': {
    exitCode: 26,
    outcome: 'escalated',
    escalates: true,
    what: "The model provider refused or failed the agent's requests (rate limit, overload, unavailable, or quota exhausted); the agent was not at fault.",
    action: "Wait for the provider's limits to reset, or raise the quota or credit of the account behind the key, then retry.",
    decision: ({ providerSaid }) =>
      `the model provider kept refusing or failing the agent's requests${providerSaid ? ` (${providerSaid})` : ' (rate limit, overload or exhausted quota)'}: wait for its limits to reset, or raise the quota or credit of the account, then retry.`
  },
  'flaky-tests': {
    exitCode: 27,
    outcome: 'escalated',
    escalates: true,
    what: 'The only failures left were tests already seen flaky in this run (failed, then passed on a rerun of the same commit), failing again, or tests failing on the base too (passed at the baseline, failed again on its tree).',
    action: 'Quarantine or fix the flaky or failing tests named in the escalation in the base, then retry; the agent is never asked to fix them.',
    decision: ({ flaky, failingOnBase }) =>
      failingOnBase
        ? `the tests left failing fail on the base too (${failingOnBase}; they passed at the baseline): fix them in the base${flaky ? `, and quarantine or fix the flaky ${flaky}` : ''}, then retry.`
        : `only flaky tests were failing at the end (each failed, then passed on the same commit): quarantine or fix ${flaky ?? 'them'} in the base, then retry.`
  }
} as const satisfies Record<string, StopReasonEntry>

export type StopReason = keyof typeof STOP_REASON_TABLE

/** Every stop reason, in the table's order. */
export const STOP_REASONS = Object.keys(STOP_REASON_TABLE) as StopReason[]

/**
 * Reasons an earlier loopgate wrote under another name, mapped to today's name, so a record from
 * that version still reads as the reason it meant. A reason is never renamed without a row here.
 */
const RENAMED_STOP_REASONS: Readonly<Record<string, StopReason>> = {}

export function isStopReason(value: string): value is StopReason {
  return Object.hasOwn(STOP_REASON_TABLE, value)
}

/** The reason a record names, under today's name; undefined for a reason this version does not know. */
export function knownStopReason(value: string): StopReason | undefined {
  if (isStopReason(value)) return value
  return Object.hasOwn(RENAMED_STOP_REASONS, value) ? RENAMED_STOP_REASONS[value] : undefined
}

export function stopReasonEntry(reason: StopReason): StopReasonEntry {
  return STOP_REASON_TABLE[reason]
}

/** Whether a person should be asked to decide (an escalation issue or comment). */
export function needsEscalation(reason: StopReason): boolean {
  return STOP_REASON_TABLE[reason].escalates
}

export function outcomeFor(reason: StopReason, escalationEnabled = true): Outcome {
  const entry = stopReasonEntry(reason)
  if (entry.escalates && !escalationEnabled) return 'stopped'
  return entry.outcome
}

/** The local CLI's exit status for a stop reason (0 only for verified). */
export function exitCodeFor(reason: StopReason): number {
  return STOP_REASON_TABLE[reason].exitCode
}
