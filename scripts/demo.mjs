#!/usr/bin/env node
// `npm run demo`: the whole loop on the bundled example repository, as the runner runs the action,
// with the real `claude` CLI (from node_modules) talking to a bundled scripted model server on
// 127.0.0.1, and dry-run publishing. Needs no API key and no network.
// `npm run demo -- --command-agent` uses the scripted shell agent instead of claude.
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startDemoModelServer } from './demo-model-server.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const work = mkdtempSync(path.join(os.tmpdir(), 'loopgate-demo-'))
const repo = path.join(work, 'demo-repo')
const runnerTemp = path.join(work, 'runner-temp')
mkdirSync(runnerTemp)
cpSync(path.join(root, 'examples', 'demo-repo'), repo, { recursive: true })

const gitEnv = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'demo',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'demo',
  GIT_COMMITTER_EMAIL: 'demo@example.com'
}
for (const args of [
  ['init', '-q', '-b', 'main'],
  ['add', '-A'],
  ['commit', '-q', '-m', 'demo: buggy slugify']
]) {
  spawnSync('git', args, { cwd: repo, env: gitEnv, stdio: 'inherit' })
}

const files = Object.fromEntries(['output', 'state', 'summary'].map((n) => [n, path.join(runnerTemp, n)]))
for (const f of Object.values(files)) writeFileSync(f, '')
writeFileSync(path.join(runnerTemp, 'event.json'), '{}')
const useCommandAgent = process.argv.includes('--command-agent')
const model = useCommandAgent ? null : await startDemoModelServer()
const agentInputs = useCommandAgent
  ? { agent: 'command', 'agent-command': `node ${JSON.stringify(path.join(root, 'scripts', 'demo-agent.mjs'))}` }
  : { agent: 'claude', 'anthropic-api-key': 'demo-no-real-key', 'max-turns': '10' }
const inputs = {
  ...agentInputs,
  'prompt-file': 'TASK.md',
  'gate-command': 'node --test test/',
  'max-iterations': '5',
  'call-budget-usd': '0.5',
  'spend-ceiling-usd': '2',
  'dry-run': 'true',
  'loop-id': 'demo'
}
const env = {
  PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
  ...(model ? { ANTHROPIC_BASE_URL: model.url } : {}),
  HOME: process.env.HOME,
  GITHUB_WORKSPACE: repo,
  GITHUB_EVENT_NAME: 'workflow_dispatch',
  GITHUB_EVENT_PATH: path.join(runnerTemp, 'event.json'),
  GITHUB_OUTPUT: files.output,
  GITHUB_STATE: files.state,
  GITHUB_STEP_SUMMARY: files.summary,
  RUNNER_TEMP: runnerTemp,
  GITHUB_RUN_ID: '1',
  GITHUB_RUN_ATTEMPT: '1'
}
for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v

// As root, loopgate runs the agent as its own unprivileged user, who must be able to reach the
// pinned CLI in this checkout. A checkout under a private folder (/root, say) is not reachable:
// then the demo runs the agent as root, with isolation weak (the summary says so).
function reachableByOthers(dir) {
  for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) if ((statSync(d).mode & 0o001) === 0) return false
  return true
}
if (process.getuid?.() === 0 && !reachableByOthers(path.join(root, 'node_modules'))) {
  env.LOOPGATE_ISOLATION = 'weak'
  console.log(`note: ${root} is not reachable by other users, so the agent runs as root (isolation weak)`)
}
console.log(`loopgate demo: ${repo}`)
console.log(model ? `agent: the real claude CLI, talking to the scripted model at ${model.url}\n` : 'agent: the scripted shell agent\n')
/**
 * The action's log as a terminal shows it: its workflow commands (`::warning::…`, `::group::…`) are
 * for the Actions log, so each becomes a plain line (warnings and errors on stderr) or nothing.
 */
function terminalLine(line) {
  const command = /^::([a-z-]+)(?: [^:]*)?::(.*)$/.exec(line)
  if (!command) return { out: line }
  const text = command[2].replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
  if (command[1] === 'warning' || command[1] === 'error') return { err: `${command[1]}: ${text}` }
  if (command[1] === 'notice' || command[1] === 'group') return { out: text }
  return {}
}
// The model server lives in this process's event loop: run the action asynchronously.
const main = await new Promise((resolve) => {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'index.js')], { cwd: repo, env, stdio: ['ignore', 'pipe', 'inherit'] })
  let rest = ''
  const write = (line) => {
    const shown = terminalLine(line)
    if (shown.out !== undefined) process.stdout.write(`${shown.out}\n`)
    if (shown.err !== undefined) process.stderr.write(`${shown.err}\n`)
  }
  child.stdout.setEncoding('utf8')
  child.stdout.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n')
    rest = lines.pop() ?? ''
    for (const line of lines) write(line)
  })
  child.on('close', (status) => {
    if (rest) write(rest)
    resolve({ status })
  })
})
await model?.close()
const outputs = Object.fromEntries(
  readFileSync(files.output, 'utf8')
    .split(/\n(?=[a-z-]+<<)/)
    .map((block) => /^([a-z-]+)<<(\S+)\n([\s\S]*?)\n\2/.exec(block))
    .filter(Boolean)
    .map((m) => [m[1], m[3]])
)
const runDir = path.dirname(outputs['log-file'] ?? '')
console.log('\n--- outputs ---')
for (const [k, v] of Object.entries(outputs)) console.log(`${k}: ${v}`)
console.log('\n--- progress file (.loopgate/progress.md) ---')
console.log(readFileSync(path.join(repo, '.loopgate', 'progress.md'), 'utf8').trim())
console.log('\n--- where to look ---')
console.log(`attempt log:        ${outputs['log-file']}`)
console.log(`would-be PR body:   ${path.join(runDir, 'pull-request.md')}`)
console.log(`step summary:       ${files.summary}`)
console.log(`the repository:     ${repo} (git log shows loopgate's commits)`)
process.exit(main.status === 0 && outputs['stop-reason'] === 'verified' ? 0 : 1)
