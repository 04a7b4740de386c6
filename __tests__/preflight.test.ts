import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createAdapter } from '../src/agents/adapter.js'
import { agentSpec } from '../src/agents/agent-registry.js'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT, runAction } from './helpers/action-runner.js'
import { CLI_BIN_DIR, runEngine } from './helpers/agent-engine.js'
import { agentUser } from './helpers/agent-user.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { buggyProject, makeRepo, sharedTempDir, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 180_000
const isRoot = process.getuid?.() === 0
const NODE_DIR = path.dirname(process.execPath)
/** A PATH with git and node and nothing of the test runner's own tools. */
const PLAIN_PATH = `${NODE_DIR}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { HOME: process.env.HOME, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` }
}

/** The ledger of the run the CLI printed (its folder is the attempt log's). */
function ledgerOf(stdout: string): string {
  const log = /attempt log: (.+)/.exec(stdout)?.[1]
  if (!log) return ''
  const ledger = path.join(path.dirname(log), 'ledger.jsonl')
  return existsSync(ledger) ? readFileSync(ledger, 'utf8') : ''
}

describe('preflight: nothing is spent on a run that cannot work', () => {
  it(
    'claude with no model credential at all is a config-error naming the inputs; no call is made',
    () => {
      const repo = makeRepo(buggyProject())
      const r = cli(['run', '--agent', 'claude', '--prompt', 'fix add', '--gate-command', 'node test/run.mjs', '--max-iterations', '1'], repo, {
        PATH: `${CLI_BIN_DIR}:${PLAIN_PATH}`
      })
      expect(r.status).toBe(exitCodeFor('config-error'))
      expect(r.all).toContain('no model credential for agent claude with provider anthropic')
      expect(r.all).toContain('--anthropic-api-key (locally also ANTHROPIC_API_KEY)')
      expect(r.all).not.toMatch(/^iteration 1/m)
      expect(ledgerOf(r.stdout)).not.toContain('"charge"')
    },
    LONG
  )

  it(
    'the action runs the same check: stop-reason config-error, nothing spent',
    async () => {
      const repo = makeRepo(buggyProject())
      const r = await runAction({
        inputs: { agent: 'claude', prompt: 'fix add', 'gate-command': 'node test/run.mjs', 'dry-run': 'true', 'max-iterations': '1' },
        workspace: repo,
        env: { PATH: `${CLI_BIN_DIR}:${PLAIN_PATH}` }
      })
      expect(r.outputs['stop-reason']).toBe('config-error')
      expect(r.outputs['spend-usd'] ?? '0.00').toBe('0.00')
      expect(`${r.stdout}${r.summary}`).toContain('no model credential for agent claude with provider anthropic')
    },
    LONG
  )

  it(
    'codex with no key names openai-api-key',
    () => {
      const repo = makeRepo(buggyProject())
      const codex = cli(['run', '--agent', 'codex', '--prompt', 'x', '--gate-command', 'node test/run.mjs', '--max-iterations', '1'], repo, {
        PATH: `${CLI_BIN_DIR}:${PLAIN_PATH}`
      })
      expect(codex.status).toBe(exitCodeFor('config-error'))
      expect(codex.all).toContain('--openai-api-key (locally also OPENAI_API_KEY)')
    },
    LONG
  )

  it.each([
    [
      'packageManager in package.json',
      { 'package.json': JSON.stringify({ name: 'p', packageManager: 'pnpm@9.12.0', scripts: { test: 'node test/run.mjs' } }) },
      'package.json declares "packageManager": "pnpm@9.12.0"'
    ],
    ['a pnpm-lock.yaml', { 'package.json': '{"name":"p"}', 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" }, 'the project has a pnpm-lock.yaml']
  ])(
    'a gate whose package manager is not installed (%s) is gate-broken naming it, before any call',
    (_what, files, declared) => {
      const repo = makeRepo({ ...buggyProject(), ...files })
      const marks = sharedTempDir()
      const r = cli(['run', '--agent', 'command', '--agent-command', `echo call >> ${marks}/calls`, '--prompt', 'x', '--gate-command', 'pnpm test'], repo, {
        PATH: PLAIN_PATH
      })
      expect(r.status).toBe(exitCodeFor('gate-broken'))
      expect(r.all).toContain('its program `pnpm` is not installed')
      expect(r.all).toContain(declared)
      expect(r.all).toContain('pnpm/action-setup')
      expect(r.all).not.toMatch(/Permission denied/i)
      expect(existsSync(path.join(marks, 'calls'))).toBe(false)
    },
    LONG
  )
})

describe('preflight: the agent user can run the agent CLI', () => {
  ;(isRoot ? it : it.skip)(
    'a CLI in a folder only root can enter is a config-error before the first call, and nothing is charged',
    () => {
      // The runner's tool cache in a private folder, holding a restored CLI.
      const cache = tempDir('loopgate-private-tools-')
      chmodSync(cache, 0o700)
      const version = agentSpec('claude').cli?.version ?? ''
      const dir = path.join(cache, 'loopgate-claude-cli', version, os.arch())
      mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true })
      writeFileSync(path.join(dir, 'node_modules', '.bin', 'claude'), '#!/bin/sh\nexit 0\n', { mode: 0o755 })
      writeFileSync(`${dir}.complete`, '')
      const repo = makeRepo(buggyProject())
      const r = cli(['run', '--agent', 'claude', '--prompt', 'x', '--gate-command', 'node test/run.mjs', '--max-iterations', '2'], repo, {
        PATH: PLAIN_PATH,
        RUNNER_TOOL_CACHE: cache,
        ANTHROPIC_API_KEY: 'sk-ant-preflight-test'
      })
      expect(r.status).toBe(exitCodeFor('config-error'))
      expect(r.all).toMatch(/the agent's user \S+ cannot execute the agent's CLI .*claude/)
      expect(r.all).not.toMatch(/^iteration 1/m)
      expect(r.all).not.toContain('sk-ant-preflight-test')
    },
    LONG
  )

  ;(isRoot ? it : it.skip)(
    'a call whose process never started (spawn ENOENT) is charged nothing',
    async () => {
      const repo = makeRepo(buggyProject())
      const adapter = createAdapter({ agent: 'claude', agentArgs: [] }, '/nonexistent/loopgate-test/claude')
      const r = await runEngine({ adapter, repo, env: { PATH: PLAIN_PATH }, user: agentUser(), maxIterations: 2, callBudgetUsd: 3, agentFailureLimit: 2 })
      expect(r.charges.length).toBeGreaterThan(0)
      for (const charge of r.charges) expect(charge).toMatchObject({ usd: 0, source: 'not-started' })
      expect(r.outcome.spentUsd).toBe(0)
    },
    LONG
  )
})

describe('the agent CLI is installed where the agent user can run it', () => {
  let registry: LocalRegistry | undefined
  const version = `0.0.${process.pid}`
  const installed = path.join('/var/cache/loopgate/tools/loopgate-claude-cli', version)

  beforeAll(async () => {
    if (isRoot) registry = await startRegistry()
  }, LONG)

  afterAll(async () => {
    await registry?.stop()
    rmSync(installed, { recursive: true, force: true })
  })

  ;(isRoot ? it : it.skip)(
    'as root with the CLI not on PATH and a private home: installed outside the home, and the agent user runs it',
    () => {
      const marks = sharedTempDir()
      const fake = `#!/bin/sh\nid -u > ${marks}/ran-as\nexit 1\n`
      registry?.publish('@anthropic-ai/claude-code', version, { 'cli.js': fake }, { bin: { claude: 'cli.js' } })
      const home = tempDir('loopgate-private-home-')
      chmodSync(home, 0o700)
      const repo = makeRepo(buggyProject())
      const args = ['run', '--agent', 'claude', '--agent-version', version, '--anthropic-api-key', 'sk-ant-install-test', '--prompt', 'x']
      const r = cli([...args, '--gate-command', 'node test/run.mjs', '--max-iterations', '1'], repo, {
        ...registry?.env,
        PATH: PLAIN_PATH,
        HOME: home
      })
      expect(r.all).not.toMatch(/EACCES/)
      expect(existsSync(path.join(marks, 'ran-as'))).toBe(true)
      expect(readFileSync(path.join(marks, 'ran-as'), 'utf8').trim()).not.toBe('0')
      expect(r.all).toContain(`installed with npm (${installed}`)
    },
    LONG
  )
})

test('a package.json that is a link out of the checkout declares nothing: preflight reads it without following the link', async () => {
  const { declaredPackageManager } = await import('../src/gate/open.js')
  const { mkdtempSync, symlinkSync, writeFileSync } = await import('node:fs')
  const os = await import('node:os')
  const pathMod = await import('node:path')
  const outside = mkdtempSync(pathMod.join(os.tmpdir(), 'loopgate-outside-'))
  writeFileSync(pathMod.join(outside, 'secret.json'), '{"packageManager":"pnpm@9.0.0"}\n')
  const ws = mkdtempSync(pathMod.join(os.tmpdir(), 'loopgate-ws-'))
  symlinkSync(pathMod.join(outside, 'secret.json'), pathMod.join(ws, 'package.json'))
  expect(declaredPackageManager(ws)).toBeNull()
  const real = mkdtempSync(pathMod.join(os.tmpdir(), 'loopgate-ws-'))
  writeFileSync(pathMod.join(real, 'package.json'), '{"packageManager":"pnpm@9.0.0"}\n')
  expect(declaredPackageManager(real)?.name).toBe('pnpm')
})
