import { removeAgentClis } from './agent-clis.mjs'

export default function globalTeardown() {
  removeAgentClis(process.env.LOOPGATE_TEST_CLI_ROOT)
}
