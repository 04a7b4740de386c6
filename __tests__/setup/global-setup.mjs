import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CLI_BIN_ENV, linkAgentClis, needsLinkedClis } from './agent-clis.mjs'
import { probeTools, testPython, TOOLS_ENV } from './test-tools.mjs'
import { TEST_TMP_ENV } from './test-tmp.mjs'

/** The first folder above `dir` that other users cannot pass through, or null. */
function privateParent(dir) {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) if ((statSync(d).mode & 0o001) === 0) return d
  return null
}

/** Runs once before the tests; the workers inherit process.env. */
export default function globalSetup() {
  const clone = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
  const blocked = privateParent(clone)
  if (blocked && process.getuid?.() === 0) {
    process.stderr.write(
      `\nwarning: ${blocked} is not searchable by other users, so the tests' gate and agent users cannot reach ${clone}/node_modules: tests that run tools from it will fail. Clone into a folder every user can pass through (or chmod o+x ${blocked}).\n\n`
    )
  }
  // Two clones tested on one machine at once must not share the tests' agent users (loopgate
  // sweeps every process of its agent user): each clone's users get a name of their own.
  if (process.env.LOOPGATE_TEST_NS === undefined) {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
    process.env.LOOPGATE_TEST_NS = createHash('sha256').update(root).digest('hex').slice(0, 4)
  }
  // Everything the tests put in the temp folder goes under one folder of this run, removed at the
  // end (see global-teardown.mjs). Traversable by every user like the temp folder itself: the
  // tests' agent and gate users reach their folders inside it.
  if (!process.env[TEST_TMP_ENV]) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'loopgate-tests-'))
    chmodSync(root, 0o1777)
    process.env[TEST_TMP_ENV] = root
    process.env.TMPDIR = root
  }
  // Once per run: which tools the tests that need more than `npm ci` installs will find.
  process.env[TOOLS_ENV] = JSON.stringify({ python: testPython(), tools: probeTools() })
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
