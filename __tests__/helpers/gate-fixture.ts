import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, lstatSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../../src/inputs/read-settings.js'
import { DryRunPublisher } from '../../src/publish/dry-run.js'
import { executeRun } from '../../src/run/execute-run.js'
import { type RunCarry } from '../../src/state/schema.js'
import { type RunReport } from '../../src/run/context.js'
import type { BaselineStore } from '../../src/gate/baseline/baseline-cache.js'
import { makeRepo, sh, tempDir } from './repo.js'
import { OWN_GATE_ROOT } from '../../src/gate/setup/gate-root.js'
import { workerAgentUser } from './action-runner.js'

/** A unique fake token planted in INPUT_GITHUB-TOKEN, GITHUB_TOKEN, ACTIONS_* and .git/config. */
export const FAKE_TOKEN = `ghs_loopgateFAKE${process.pid}x${Date.now().toString(36)}`

/**
 * A project whose gate (`node test/run.mjs`) uses an assertion helper from node_modules and has
 * the test-runner configuration of several ecosystems (all protected by default).
 */
export function attackProject(): Record<string, string> {
  return {
    '.gitignore': 'node_modules/\n',
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/run.mjs': [
      "import { check, done } from 'minicheck'",
      "import { add } from '../src/math.mjs'",
      "check('math adds two numbers', add(2, 3), 5)",
      "check('math adds zero', add(0, 0), 0)",
      'done()',
      ''
    ].join('\n'),
    'package.json': JSON.stringify({ name: 'p', type: 'module', scripts: { test: 'node test/run.mjs' }, dependencies: { minicheck: '1.0.0' } }, null, 2) + '\n',
    'jest.config.js': 'export default { testMatch: ["**/test/**/*.mjs"] }\n',
    'pytest.ini': '[pytest]\naddopts = -q\n',
    'conftest.py': '# shared fixtures\n',
    'pyproject.toml': '[project]\nname = "p"\ndependencies = ["requests==2.0.0"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
    'features.json': JSON.stringify([{ id: 'add', test: 'math adds two numbers', passes: false }], null, 2) + '\n'
  }
}

export const MINICHECK = [
  'let failed = 0',
  'export function check(name, actual, expected) {',
  "  if (actual === expected) console.log('✓ ' + name)",
  "  else { failed++; console.log('✕ ' + name); console.log('  expected ' + expected + ', got ' + actual) }",
  '}',
  'export function done() { if (failed) process.exit(1) }',
  ''
].join('\n')

export interface AttackOptions {
  /** The agent's bash script, run once per iteration in the workspace. */
  script: string
  isolation: 'auto' | 'weak'
  /** The agent user's name; null lets loopgate create one for the run (its default). */
  agentUser?: string | null
  files?: Record<string, string>
  inputs?: Record<string, string>
  env?: Record<string, string>
  /** Runs on the repository before the run (e.g. a PR commit on top of the base). */
  prepare?: (ws: string) => void
  /** The run's id (default: a fresh one). */
  runId?: string
  /** The state carried into the run (a resumed run's base, say). */
  carry?: RunCarry
  /** A repository made by the test (then `files` and the minicheck install are not used). */
  workspace?: string
  /** Baselines of earlier runs (a loop's state): a run on the same inputs takes its baseline from here. */
  baselines?: BaselineStore
}

export interface AttackResult {
  report: RunReport
  ws: string
  temp: string
  agentHome: string | null
  log: string
  runId: string
  /** The folders the run's gate folder may have been in (the temp folder's, or loopgate's own). */
  gateRoots: string[]
}

/** Runs the whole engine (executeRun) with a scripted command agent that performs an attack. */
export async function runAttack(opts: AttackOptions): Promise<AttackResult> {
  const ws = opts.workspace ?? makeRepo(opts.files ?? attackProject())
  if (!opts.workspace) {
    mkdirSync(path.join(ws, 'node_modules', 'minicheck'), { recursive: true })
    writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'package.json'), JSON.stringify({ name: 'minicheck', type: 'module', main: 'index.mjs' }))
    writeFileSync(path.join(ws, 'node_modules', 'minicheck', 'index.mjs'), MINICHECK)
  }
  opts.prepare?.(ws)
  sh(ws, ['config', 'http.https://github.com/.extraheader', `AUTHORIZATION: basic ${FAKE_TOKEN}`])
  const temp = tempDir('loopgate-runner-temp-')
  const scripts = path.join(temp, 'agent-scripts')
  mkdirSync(scripts, { recursive: true })
  chmodSync(temp, 0o755)
  const scriptFile = path.join(scripts, 'agent.sh')
  writeFileSync(scriptFile, opts.script, { mode: 0o755 })
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    GITHUB_TOKEN: FAKE_TOKEN,
    'INPUT_GITHUB-TOKEN': FAKE_TOKEN,
    ACTIONS_RUNTIME_TOKEN: FAKE_TOKEN,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: FAKE_TOKEN,
    RUNNER_TEMP: temp,
    ...opts.env
  }
  const inputs: Record<string, string> = {
    agent: 'command',
    prompt: 'make the tests pass',
    'agent-command': `bash ${scriptFile}`,
    'gate-command': 'node test/run.mjs',
    'max-iterations': '2',
    'call-budget-usd': '1',
    'spend-ceiling-usd': '10',
    'loop-id': 'attack',
    'github-token': FAKE_TOKEN,
    ...opts.inputs
  }
  const settings = readSettings((name) => inputs[name] ?? '', { GITHUB_WORKSPACE: ws })
  const lines: string[] = []
  const runId = opts.runId ?? `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`
  const report = await executeRun(settings, {
    env,
    runId,
    tempDir: temp,
    publisher: new DryRunPublisher(),
    signal: new AbortController().signal,
    report: (line) => lines.push(line),
    isolation: opts.isolation,
    carry: opts.carry,
    baselines: opts.baselines,
    agentUser: opts.agentUser === null ? undefined : (opts.agentUser ?? workerAgentUser())
  })
  const agentHome = opts.isolation === 'auto' && opts.agentUser ? `/home/${opts.agentUser}` : null
  const log = readFileSync(report.logFile, 'utf8') + lines.join('\n')
  return { report, ws, temp, agentHome, log, runId, gateRoots: [path.join(temp, 'loopgate-gate'), OWN_GATE_ROOT] }
}

/** Every regular file under dir (symlinks not followed), skipping .git/objects. */
export function filesUnder(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    let names: string[]
    try {
      names = readdirSync(d)
    } catch {
      return
    }
    for (const name of names) {
      const full = path.join(d, name)
      if (full.endsWith(`${path.sep}.git${path.sep}objects`)) continue
      const st = lstatSync(full)
      if (st.isDirectory()) walk(full)
      else if (st.isFile()) out.push(full)
    }
  }
  walk(dir)
  return out
}

/**
 * The run's own gate folders still there (loopgate's own gate folder is shared by every run on the
 * machine; one being removed in the background is passed over).
 */
export function runGateDirs(result: Pick<AttackResult, 'gateRoots' | 'runId'>): string[] {
  return result.gateRoots.flatMap((root) =>
    existsSync(root)
      ? readdirSync(root)
          .filter((name) => name.includes(result.runId) && !name.includes('.removed-'))
          .map((name) => path.join(root, name))
      : []
  )
}

/** Files the agent could read or write that contain the token (workspace, call dirs, its home, the log). */
export function tokenLeaks(result: AttackResult): string[] {
  const places = [result.ws, path.join(result.temp, 'loopgate-calls'), ...runGateDirs(result)]
  if (result.agentHome && existsSync(result.agentHome)) places.push(result.agentHome)
  const leaks = places.flatMap(filesUnder).filter((f) => readFileSync(f, 'latin1').includes(FAKE_TOKEN))
  if (result.log.includes(FAKE_TOKEN)) leaks.push('attempt log / report lines')
  for (const it of result.report.run?.iterations ?? []) {
    if (it.agent.outputTail.includes(FAKE_TOKEN) || it.agent.finalText.includes(FAKE_TOKEN)) leaks.push(`agent output, iteration ${it.iteration}`)
  }
  return leaks
}

export function gitIn(dir: string, args: string[]): string {
  return execFileSync('git', ['-c', 'safe.directory=*', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
}
