import { callSpendLimit } from '../src/loop/admit.js'
import type { LoopRun } from '../src/loop/run-state.js'

function runWith(spent: number, period?: { ceilingUsd: number; spentBeforeUsd: number }): Pick<LoopRun, 'config' | 'deps'> {
  return { config: { callBudgetUsd: 2, spendCeilingUsd: 10, period }, deps: { ledger: { spentUsd: spent } } } as unknown as Pick<LoopRun, 'config' | 'deps'>
}

test('the call budget bounds a call while the ceilings leave more', () => {
  expect(callSpendLimit(runWith(3))).toEqual({ usd: 2, name: 'call-budget-usd' })
})

test('the run ceiling bounds it when less is left under spend-ceiling-usd', () => {
  expect(callSpendLimit(runWith(8.5))).toEqual({ usd: 1.5, name: 'spend-ceiling-usd' })
})

test('the rolling window bounds it when earlier runs used most of period-ceiling-usd', () => {
  expect(callSpendLimit(runWith(1, { ceilingUsd: 5, spentBeforeUsd: 3.25 }))).toEqual({ usd: 0.75, name: 'period-ceiling-usd' })
  expect(callSpendLimit(runWith(3, { ceilingUsd: 5, spentBeforeUsd: 3.25 }))).toEqual({ usd: 0, name: 'period-ceiling-usd' })
})
