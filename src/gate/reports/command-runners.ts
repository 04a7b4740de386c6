import { baseName, commandSegments } from './command-words.js'
import { managerCall } from './package-scripts.js'
import { runnerOf, type ChannelRunner } from './report-channel.js'

/** The report option of each runner loopgate knows, as a gate command of your own would pass it. */
export const REPORT_OPTIONS: Record<ChannelRunner, string> = {
  pytest: 'pytest --junitxml=<file>',
  jest: 'jest --json --outputFile=<file>',
  vitest: 'vitest --reporter=junit --outputFile=<file>',
  mocha: 'mocha --reporter=xunit --reporter-option=output=<file>',
  'node:test': 'node --test --test-reporter=junit --test-reporter-destination=<file>',
  unittest: 'python -m xmlrunner (unittest-xml-reporting) or pytest --junitxml=<file>',
  django: 'manage.py test with a JUnit XML test runner (unittest-xml-reporting)'
}

/**
 * The runners loopgate knows that a gate command starts anywhere in it, through the package
 * scripts it calls (`tsc && npm test`, `cd app; pytest`, `yarn test` whose script runs node:test):
 * their console summary is never a count, whether or not loopgate could add its option.
 */
export function runnersInCommand(command: string, scripts: Record<string, unknown> | undefined, depth = 0): ChannelRunner[] {
  const found = new Set<ChannelRunner>()
  for (const segment of commandSegments(command)) {
    for (let i = 0; i < segment.length; i++) {
      const direct = runnerOf(segment.slice(i))
      if (direct) found.add(direct.runner)
      // node:test with a reporter of its own gets no option of loopgate's, and is still node:test
      if (baseName(segment[i]) === 'node' && segment.slice(i + 1).includes('--test')) found.add('node:test')
      const call = depth < 3 ? managerCall(segment.slice(i), scripts) : null
      if (call?.kind === 'script') for (const r of runnersInCommand(call.script, scripts, depth + 1)) found.add(r)
      const bin = call?.kind === 'bin' ? runnerOf(call.words) : null
      if (bin) found.add(bin.runner)
    }
  }
  return [...found]
}
