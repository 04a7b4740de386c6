import type { SpendLimit } from '../agent-result.js'
import type { LoopRun } from './run-state.js'
import type { StopReason } from './stop-reasons.js'

/**
 * Admission, before every call: the iteration cap, the whole-run time limit, the run's spend
 * ceiling and the rolling period ceiling, each counted by loopgate. A call starts only while
 * spent + call budget fits under the ceiling.
 */
export function admit(run: LoopRun, iteration: number): StopReason | null {
  const { config, deps } = run
  const spent = deps.ledger.spentUsd
  if (run.signal.aborted) return 'cancelled'
  if (iteration > config.maxIterations) return 'max-iterations'
  if (deps.clock.now() - run.startedAt >= config.timeLimitMs) return 'time-limit'
  if (spent + config.callBudgetUsd > config.spendCeilingUsd + 1e-9) return 'spend-ceiling'
  if (config.period && config.period.spentBeforeUsd + spent + config.callBudgetUsd > config.period.ceilingUsd + 1e-9) {
    return 'period-ceiling'
  }
  return null
}

/**
 * What the next call may spend at most: its budget, or less where the run's ceiling or the
 * rolling window leaves less. The metering proxy refuses the call's next model request once the
 * call's usage has reached it.
 */
export function callSpendLimit(run: Pick<LoopRun, 'config' | 'deps'>): SpendLimit {
  const { config, deps } = run
  const spent = deps.ledger.spentUsd
  const limits: SpendLimit[] = [
    { usd: config.callBudgetUsd, name: 'call-budget-usd' },
    { usd: config.spendCeilingUsd - spent, name: 'spend-ceiling-usd' },
    ...(config.period ? [{ usd: config.period.ceilingUsd - config.period.spentBeforeUsd - spent, name: 'period-ceiling-usd' }] : [])
  ]
  const least = limits.reduce((a, b) => (b.usd < a.usd ? b : a))
  return { usd: Math.max(0, least.usd), name: least.name }
}
