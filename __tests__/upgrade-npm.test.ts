import { execFileSync } from 'node:child_process'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseState } from '../src/state/parse.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { upgradeLoop, type UpgradeLoop } from './helpers/upgrade-loop.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const LONG = 300_000

let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  const meta = {
    type: 'module',
    main: 'index.js',
    repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' },
    homepage: 'https://example.com/mathlib'
  }
  registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish('mathlib', '1.1.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
  registry.publish(
    'mathlib',
    '2.0.0',
    { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n', 'CHANGELOG.md': '# 2.0.0\n\n`add` is now `sum`.\n' },
    meta
  )
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

/** A project on mathlib@^1 (locked at 1.0.0) whose test goes through the call site. */
function project(): { ws: string; start: string } {
  const ws = makeRepo({
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
    '.gitignore': 'node_modules\n',
    'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
    'test/calc.test.js':
      "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
  })
  execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', 'depend on mathlib'])
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

/** Runs as the action does: state restored, the run, the state saved. npm points at the local registry. */
function loop(ws: string): UpgradeLoop {
  return upgradeLoop(
    ws,
    { ...process.env, npm_config_registry: registry.url },
    {
      'loop-id': 'deps',
      'gate-command': 'node --test',
      'gate-setup': 'npm ci --no-audit --no-fund',
      'agent-env': 'npm_config_registry'
    }
  )
}

/** A fresh checkout of the start commit, as the next scheduled run gets it (no node_modules). */
function freshCheckout(ws: string, start: string): void {
  sh(ws, ['checkout', '-q', '-f', 'main'])
  sh(ws, ['reset', '-q', '--hard', start])
  sh(ws, ['clean', '-q', '-f', '-d'])
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
}

const subjects = (ws: string, range: string): string[] => sh(ws, ['log', '--format=%s', range]).trim().split('\n').filter(Boolean)
const changedIn = (ws: string, commit: string): string[] =>
  sh(ws, ['diff', '--name-only', `${commit}^`, commit])
    .trim()
    .split('\n')
    .filter(Boolean)

describe('task: dependency-upgrade (npm, against a local registry)', () => {
  it(
    'bumps a breaking major as its own commit, the agent fixes the call site, one PR; the next run with nothing new spends nothing',
    async () => {
      const { ws, start } = project()
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' src/calc.js`
      const deps = loop(ws)

      const { report } = await deps.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(1)
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      // loopgate's own bump commit comes first, then the agent's fix.
      const bump = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')[0]
      expect(subjects(ws, `${start}..HEAD`).reverse()).toEqual(['chore(deps): bump mathlib from 1.0.0 to 2.0.0', 'loopgate: iteration 1'])
      expect(changedIn(ws, bump).sort()).toEqual(['package-lock.json', 'package.json'])
      expect(JSON.parse(sh(ws, ['show', `${bump}:package.json`])).dependencies).toEqual({ mathlib: '^2.0.0' })
      expect(JSON.parse(sh(ws, ['show', `${bump}:package-lock.json`])).packages['node_modules/mathlib'].version).toBe('2.0.0')
      expect(readFileSync(path.join(ws, 'src/calc.js'), 'utf8')).toContain('sum(a, b)')

      // The task names the package, the versions, the kind, the gate's failure and the release notes.
      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/on the bumped tree: failed/)
      expect(prompt).toMatch(/does not provide an export named 'add'/)
      expect(prompt).toContain('release notes: https://github.com/example/mathlib/releases')
      expect(prompt).toContain('changelog of the installed version: node_modules/mathlib/CHANGELOG.md')

      // One pull request: the title reviewers know, the body listing what the agent changed beyond the bump.
      const [bodyFile, titleFile] = report.published.files
      expect(readFileSync(titleFile, 'utf8').trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 2.0.0 (major)')
      const body = readFileSync(bodyFile, 'utf8')
      expect(body).toContain(`loopgate made the bump itself with the package manager, before any agent call: commit \`${bump}\``)
      expect(body).toMatch(/What the agent had to change beyond the bump\*\* \(1 file\(s\)\):\n- ` src\/calc\.js ` \+2\/−2/)
      expect(body).not.toMatch(/^- ` package(-lock)?\.json `/m)

      // The next scheduled run sees the same outdated package on the same base: nothing to do, nothing spent.
      freshCheckout(ws, start)
      const second = await deps.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(second.report.stopReason).toBe('nothing-to-do')
      expect(second.report.run).toBeNull()
      expect(second.report.notes.join('\n')).toMatch(/mathlib 1\.0\.0 → 2\.0\.0 verified in run deps-\d+-1/)
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)
      expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(start)
      const state = parseState(readFileSync(second.session.info.location.file, 'utf8'), 'deps')
      expect(state.upgradeAttempts).toMatchObject([
        { package: 'mathlib', from: '1.0.0', target: '2.0.0', baseCommit: start, outcome: 'verified', fingerprint: null }
      ])
    },
    LONG
  )

  it(
    'a bump that passes the gate alone is verified with no agent call; held majors are named',
    async () => {
      const { ws, start } = project()
      rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
      const shared = sharedTempDir()
      const { report } = await loop(ws).run({ 'agent-command': `touch ${shared}/called` })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(0)
      expect(report.run?.spentUsd).toBe(0)
      expect(existsSync(path.join(shared, 'called'))).toBe(false)
      expect(subjects(ws, `${start}..HEAD`)).toEqual(['chore(deps): bump mathlib from 1.0.0 to 1.1.0'])
      expect(report.run?.verifiedCommit).toBe(sh(ws, ['rev-parse', 'HEAD']).trim())
      expect(report.notes.join('\n')).toContain('mathlib 1.0.0 → 2.0.0: a major upgrade, held (allow-major is false)')
      const [bodyFile, titleFile] = report.published.files
      expect(readFileSync(titleFile, 'utf8').trim()).toBe('chore(deps): bump mathlib from 1.0.0 to 1.1.0')
      expect(readFileSync(bodyFile, 'utf8')).toContain('The bump alone passes the gate, so no agent was called.')
    },
    LONG
  )

  it(
    'a failed upgrade is not retried on the same base: the next candidate is tried instead',
    async () => {
      const { ws, start } = project()
      const shared = sharedTempDir()
      const deps = loop(ws)
      // An agent that changes nothing: the major stays broken.
      const first = await deps.run({ 'allow-major': 'true', 'agent-command': `echo call >> ${shared}/calls`, 'max-iterations': '1' })
      expect(first.report.stopReason).toBe('max-iterations')
      const failed = parseState(readFileSync(first.session.info.location.file, 'utf8'), 'deps').upgradeAttempts
      expect(failed).toMatchObject([{ package: 'mathlib', target: '2.0.0', outcome: 'failed', fingerprint: expect.any(String) }])

      freshCheckout(ws, start)
      const second = await deps.run({ 'allow-major': 'true', 'agent-command': `echo call >> ${shared}/calls`, 'max-iterations': '1' })
      expect(second.report.notes.join('\n')).toMatch(/not upgraded: mathlib 1\.0\.0 → 2\.0\.0: mathlib 1\.0\.0 → 2\.0\.0 failed \(fingerprint/)
      expect(second.report.stopReason).toBe('verified')
      expect(subjects(ws, `${start}..HEAD`)).toEqual(['chore(deps): bump mathlib from 1.0.0 to 1.1.0'])
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)
    },
    LONG
  )

  it(
    'the bump runs no install script of the new version',
    async () => {
      const shared = sharedTempDir()
      const marker = path.join(shared, 'install-script-ran')
      const hook = { scripts: { preinstall: `touch ${marker}`, install: `touch ${marker}`, postinstall: `touch ${marker}` } }
      registry.publish('hooked', '1.0.0', { 'index.js': 'module.exports = 1\n' })
      registry.publish('hooked', '1.0.1', { 'index.js': 'module.exports = 1\n' }, hook)
      const ws = makeRepo({
        'package.json': JSON.stringify({ name: 'hooks', version: '1.0.0', private: true }, null, 2),
        '.gitignore': 'node_modules\n',
        'test/ok.test.js': "require('node:test')('ok', () => {})\n"
      })
      execFileSync('npm', ['install', 'hooked@1.0.0', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
      sh(ws, ['add', '-A'])
      sh(ws, ['commit', '-q', '-m', 'depend on hooked'])
      const { report } = await loop(ws).run({ 'agent-command': 'true', 'gate-setup': 'npm ci --ignore-scripts --no-audit --no-fund' })
      expect(report.stopReason).toBe('verified')
      expect(report.notes.join('\n')).toContain('chore(deps): bump hooked from 1.0.0 to 1.0.1')
      expect(existsSync(marker)).toBe(false)
    },
    LONG
  )
  it(
    'a range keeps its operator and a pin stays a pin',
    async () => {
      for (const [range, written] of [
        ['~1.0.0', '~2.0.0'],
        ['>=1.0.0', '>=2.0.0'],
        ['1.0.0', '2.0.0']
      ]) {
        // Locked at 1.0.0 first, then the range declared: npm keeps the locked version that satisfies it.
        const manifest = (r: string): string => JSON.stringify({ name: 'ops', version: '1.0.0', private: true, dependencies: { mathlib: r } }, null, 2)
        const ws = makeRepo({ 'package.json': manifest('1.0.0') })
        const npmEnv = { ...process.env, ...registry.env }
        execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ws, env: npmEnv, stdio: 'pipe' })
        writeFileSync(path.join(ws, 'package.json'), manifest(range))
        execFileSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ws, env: npmEnv, stdio: 'pipe' })
        rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
        sh(ws, ['add', '-A'])
        sh(ws, ['commit', '-q', '-m', `mathlib ${range}`])
        const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] } as unknown as UpgradeSettings
        const ready = await prepareUpgrade(settings, {
          repository: GitRepository.plain(settings.workspace),
          attempts: [],
          env: packageManagerEnv({ ...process.env, ...registry.env }),
          runId: 'deps-1-1'
        })
        expect(ready.kind).toBe('ready')
        expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: written })
      }
    },
    LONG
  )
  it(
    "goes through the runner's HTTP proxy, to a registry only the proxy reaches",
    async () => {
      const { ws } = project()
      // A forward proxy that sends every request to the local registry, whatever host it names.
      const target = new URL(registry.url)
      const seen: string[] = []
      const proxy = http.createServer((req, res) => {
        seen.push(req.url ?? '')
        const url = new URL(req.url ?? '/')
        const upstream = http.request(
          { host: target.hostname, port: target.port, path: url.pathname + url.search, method: req.method, headers: { ...req.headers, host: target.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers)
            answer.pipe(res)
          }
        )
        upstream.on('error', () => res.writeHead(502).end())
        req.pipe(upstream)
      })
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
      try {
        const port = (proxy.address() as AddressInfo).port
        // A registry host that does not resolve: only the proxy can reach it.
        const unreachable = `http://registry.invalid:${target.port}/`
        const runner = {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...registry.env,
          npm_config_registry: unreachable,
          HTTP_PROXY: `http://127.0.0.1:${port}`
        }
        const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: false, protectedPaths: ['test/**'] } as unknown as UpgradeSettings
        const ready = await prepareUpgrade(settings, { repository: GitRepository.plain(ws), attempts: [], env: packageManagerEnv(runner), runId: 'deps-1-1' })
        expect(ready.kind).toBe('ready')
        expect(JSON.parse(sh(ws, ['show', 'HEAD:package.json'])).dependencies).toEqual({ mathlib: '^1.1.0' })
        expect(seen.some((u) => u.startsWith(`${unreachable}mathlib`))).toBe(true)
      } finally {
        await new Promise((resolve) => proxy.close(resolve))
      }
    },
    LONG
  )
})
