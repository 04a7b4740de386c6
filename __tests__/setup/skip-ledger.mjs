// What the tests skipped for a missing tool: each worker appends a line per skipped group to a file
// of its own in the run's temp folder, and the global teardown reads them all for the summary.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { TEST_TMP_ENV } from './test-tmp.mjs'

const LEDGER_DIR = 'skipped-for-tools'

/** Records one skipped group: { file, name, tools: [{ name, what, install }] }. */
export function recordSkip(skip, tmp = process.env[TEST_TMP_ENV]) {
  if (!tmp) return
  const dir = path.join(tmp, LEDGER_DIR)
  mkdirSync(dir, { recursive: true })
  appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(skip)}\n`)
}

export function readSkips(tmp = process.env[TEST_TMP_ENV]) {
  const dir = tmp && path.join(tmp, LEDGER_DIR)
  if (!dir || !existsSync(dir)) return []
  return readdirSync(dir)
    .flatMap((file) => readFileSync(path.join(dir, file), 'utf8').split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .sort((a, b) => `${a.file} ${a.name}`.localeCompare(`${b.file} ${b.name}`))
}

/** The one line printed where a group is skipped, and listed again at the end of the run. */
export function skipLine(skip) {
  const needs = skip.tools.map((t) => `${t.what} (${t.install})`).join('; ')
  return `skipped ${skip.file} › ${skip.name}: needs ${needs}`
}

/** The end-of-run summary: every skipped group, then the commands that bring what they need. */
export function skipSummary(skips) {
  if (skips.length === 0) return ''
  const installs = [...new Set(skips.flatMap((s) => s.tools.map((t) => t.install)))]
  const apt = installs.filter((i) => /^apt-get install \S+$/.test(i)).map((i) => i.split(' ')[2])
  const commands = [...(apt.length ? [`apt-get install ${apt.join(' ')}`] : []), ...installs.filter((i) => !/^apt-get install \S+$/.test(i))]
  return [
    `${skips.length} test group(s) did not run, for a tool this machine lacks:`,
    ...skips.map((s) => `  ${skipLine(s)}`),
    'To run them:',
    ...commands.map((c) => `  ${c}`)
  ].join('\n')
}
