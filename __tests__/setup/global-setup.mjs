import path from 'node:path'
import { CLI_BIN_ENV, linkAgentClis } from './agent-clis.mjs'

/** Runs once before the tests; the workers inherit process.env. */
export default function globalSetup() {
  if (process.env[CLI_BIN_ENV]) return
  const root = linkAgentClis()
  process.env.LOOPGATE_TEST_CLI_ROOT = root
  process.env[CLI_BIN_ENV] = path.join(root, 'node_modules', '.bin')
}
