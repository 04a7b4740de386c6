/** The action on a runner whose RUNNER_TEMP is missing: a config error through the normal outputs. */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { run } from '../src/main.js'
import { parseFileCommands } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

const saved = { ...process.env }

afterEach(() => {
  process.env = { ...saved }
  process.exitCode = undefined
})

test('a RUNNER_TEMP that does not exist ends config-error naming RUNNER_TEMP and the fix, in the outputs and the summary', async () => {
  const repo = makeRepo(buggyProject())
  const files = tempDir('loopgate-runner-files-')
  const output = path.join(files, 'output')
  const summary = path.join(files, 'summary')
  const state = path.join(files, 'state')
  for (const f of [output, summary, state]) writeFileSync(f, '')
  const missing = path.join(files, 'no-such-temp')
  process.env = {
    PATH: saved.PATH,
    HOME: saved.HOME,
    GITHUB_WORKSPACE: repo,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_STATE: state,
    RUNNER_TEMP: missing,
    INPUT_AGENT: 'command',
    'INPUT_AGENT-COMMAND': 'true',
    INPUT_PROMPT: 'Make add() add.',
    'INPUT_GATE-COMMAND': 'node test/run.mjs',
    'INPUT_DRY-RUN': 'true'
  }
  await run()
  const outputs = parseFileCommands(readFileSync(output, 'utf8'))
  expect(outputs['stop-reason']).toBe('config-error')
  expect(outputs['spend-usd']).toBe('0.00')
  const text = readFileSync(summary, 'utf8')
  expect(text).toContain('loopgate: config-error')
  expect(text).toContain(`RUNNER_TEMP ${missing} does not exist: create it (mkdir -p ${missing})`)
  expect(readFileSync(outputs['log-file'], 'utf8')).toContain('RUNNER_TEMP')
  expect(process.exitCode).toBe(1)
})
