import { placedFolder } from '../../fs/placed-folder.js'
import path from 'node:path'

/**
 * The report option for jest, vitest or mocha where a package script starts the runner but the
 * arguments a package manager appends cannot reach it (`jest && eslint .`): loopgate preloads a
 * module of its own in every node process of the gate command (`NODE_OPTIONS=--require …`). In the
 * process whose main module is that runner's command-line entry, in the project's `node_modules`,
 * it adds loopgate's report option to the arguments before the runner reads them. Any other node
 * process (npm itself, the runner's workers, the code under test) is left as it is.
 */

const PRELOAD = String.raw`'use strict'
const fs = require('node:fs')
const spec = process.env.LOOPGATE_RUNNER_REPORT
const ENTRY = {
  jest: /\/node_modules\/(?:jest|jest-cli)\/bin\/jest\.js$/,
  vitest: /\/node_modules\/vitest\/vitest\.mjs$/,
  mocha: /\/node_modules\/mocha\/bin\/(?:mocha|_mocha)(?:\.js)?$/
}
if (spec && process.argv[1]) {
  let main = process.argv[1]
  try { main = fs.realpathSync(main) } catch {}
  const { runner, args } = JSON.parse(spec)
  if (ENTRY[runner] && ENTRY[runner].test(main)) {
    process.argv.push(...args)
    // Its own child processes (mocha's _mocha) get the arguments from it, not a second time.
    delete process.env.LOOPGATE_RUNNER_REPORT
  }
}
`

const PRELOAD_FILE = 'loopgate-runner-report.cjs'

/** Writes the preload in loopgate's own folder of the gate (root's, readable by the gate user), once. */
export function placeRunnerPreload(gateDir: string): string {
  return path.join(placedFolder(path.join(gateDir, 'node'), { [PRELOAD_FILE]: PRELOAD }), PRELOAD_FILE)
}

/** The environment that makes the preload add `args` to `runner`'s command line. */
export function preloadEnv(preload: string, runner: 'jest' | 'vitest' | 'mocha', args: string[]): Record<string, string> {
  return {
    NODE_OPTIONS: `--require "${preload.replace(/["\\]/g, '\\$&')}"`,
    LOOPGATE_RUNNER_REPORT: JSON.stringify({ runner, args })
  }
}
