import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLI_BIN_ENV, linkAgentClis, needsLinkedClis } from './agent-clis.mjs'

/** Runs once before the tests; the workers inherit process.env. */
export default function globalSetup() {
  if (process.env[CLI_BIN_ENV]) return
  const modules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules')
  if (!needsLinkedClis(modules)) {
    process.env[CLI_BIN_ENV] = path.join(modules, '.bin')
    return
  }
  const root = linkAgentClis(modules)
  process.env.LOOPGATE_TEST_CLI_ROOT = root
  process.env[CLI_BIN_ENV] = path.join(root, 'node_modules', '.bin')
}
