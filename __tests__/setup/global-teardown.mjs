import { removeAgentClis } from './agent-clis.mjs'
import { removeTestTmp } from './test-tmp.mjs'

export default function globalTeardown() {
  removeAgentClis(process.env.LOOPGATE_TEST_CLI_ROOT)
  removeTestTmp()
}
