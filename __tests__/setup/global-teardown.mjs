import { removeAgentClis } from './agent-clis.mjs'
import { readSkips, skipSummary } from './skip-ledger.mjs'
import { removeTestTmp } from './test-tmp.mjs'

export default function globalTeardown() {
  const skips = readSkips()
  removeAgentClis(process.env.LOOPGATE_TEST_CLI_ROOT)
  removeTestTmp()
  if (skips.length === 0) return
  process.stderr.write(`\n${skipSummary(skips)}\n`)
  // CI installs every tool the tests need (.ci/run): a skip there means one is missing.
  if (process.env.CI === 'true') throw new Error(`CI=true: ${skips.length} test group(s) skipped for a missing tool (see above); .ci/run must install it`)
}
