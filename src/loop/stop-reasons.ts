/** The closed set of reasons a run ends for. Every run ends with exactly one. */
export const STOP_REASONS = [
  'verified',
  'max-iterations',
  'spend-ceiling',
  'period-ceiling',
  'time-limit',
  'no-progress',
  'same-failure',
  'protected-tampering',
  'agent-failure',
  'cancelled',
  'review-capacity',
  'nothing-to-do',
  'state-corrupt',
  'config-error'
] as const

export type StopReason = (typeof STOP_REASONS)[number]

export type Outcome = 'verified' | 'escalated' | 'stopped' | 'skipped'

const SKIPS: ReadonlySet<StopReason> = new Set(['review-capacity', 'nothing-to-do'])
const NEVER_STARTED: ReadonlySet<StopReason> = new Set(['config-error', 'state-corrupt'])

export function isStopReason(value: string): value is StopReason {
  return (STOP_REASONS as readonly string[]).includes(value)
}

/** Whether a person should be asked to decide (an escalation issue or comment). */
export function needsEscalation(reason: StopReason): boolean {
  return reason !== 'verified' && !SKIPS.has(reason) && !NEVER_STARTED.has(reason)
}

export function outcomeFor(reason: StopReason, escalationEnabled = true): Outcome {
  if (reason === 'verified') return 'verified'
  if (SKIPS.has(reason)) return 'skipped'
  if (NEVER_STARTED.has(reason)) return 'stopped'
  return escalationEnabled ? 'escalated' : 'stopped'
}

/** Distinct exit status per stop reason for the local CLI: 0 for verified, 10 + index otherwise. */
export function exitCodeFor(reason: StopReason): number {
  if (reason === 'verified') return 0
  return 10 + STOP_REASONS.indexOf(reason)
}

/** Plain words: which control fired, and what a person can change. */
export const STOP_EXPLANATIONS: Record<StopReason, { what: string; action: string }> = {
  verified: {
    what: 'The protected gate passed on a non-empty change set.',
    action: 'Review the pull request; a passing gate is only as good as the tests behind it.'
  },
  'max-iterations': {
    what: 'The outer loop reached `max-iterations` without a passing gate.',
    action: 'Split the task into smaller pieces, or raise `max-iterations` if each attempt made real progress.'
  },
  'spend-ceiling': {
    what: 'Starting another call could have pushed this run past `spend-ceiling-usd`.',
    action: 'Raise `spend-ceiling-usd`, lower `call-budget-usd`, or narrow the task.'
  },
  'period-ceiling': {
    what: 'The rolling spend over `period-hours` left no room for another call under `period-ceiling-usd`.',
    action: 'Wait for the window to roll, or raise `period-ceiling-usd`.'
  },
  'time-limit': {
    what: 'The run reached `time-limit-minutes`.',
    action: 'Raise `time-limit-minutes` (below the job\'s `timeout-minutes`), or split the task.'
  },
  'no-progress': {
    what: 'Several iterations in a row left the code unchanged (`no-progress-limit`).',
    action: 'Make the task more specific, or check that the agent can run the tools it needs.'
  },
  'same-failure': {
    what: 'The gate failed the same way after new changes (`same-failure-limit`): retrying brought no new evidence.',
    action: 'Read the failing tests below; fix a flaky test, or give the agent the missing context.'
  },
  'protected-tampering': {
    what: 'The agent changed protected tests or test configuration again after being told it may not.',
    action: 'Check whether the task needs the tests changed; if so, change them yourself first.'
  },
  'agent-failure': {
    what: 'The agent process failed several calls in a row (errors, refusals, crashes or timeouts).',
    action: 'Check the API key, the model name in `agent-args`, and the agent output in the attempt log.'
  },
  cancelled: {
    what: 'The run was cancelled; the in-flight call was charged and the log flushed.',
    action: 'Re-run the workflow; the next run resumes from the work-in-progress branch.'
  },
  'review-capacity': {
    what: 'This loop already has `max-open-prs` open pull requests, or this pull request already had `max-runs-per-pr` loop runs; nothing was spent.',
    action: 'Review or close the open loop pull requests (or the pull request itself), or raise `max-open-prs` / `max-runs-per-pr`.'
  },
  'nothing-to-do': {
    what: 'There was nothing to do: no change was needed and the gate passes.',
    action: 'Nothing; the next run tries again.'
  },
  'state-corrupt': {
    what: 'The saved loop state could not be read; nothing was spent.',
    action: 'Delete the `loopgate-<loop-id>-` cache entries, or fix the state shown in the log.'
  },
  'config-error': {
    what: 'An input was invalid; nothing was spent.',
    action: 'Fix the input named in the error message.'
  }
}
