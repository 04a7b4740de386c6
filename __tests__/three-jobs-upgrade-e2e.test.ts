/**
 * `task: dependency-upgrade` through the bundled action as the runner runs it: npm against a local
 * registry (verdaccio), the loop state through the real @actions/cache and the local cache
 * service, publishing to the local GitHub server and a bare remote.
 */
import { hangingSleep, killMarked } from './helpers/hanging-agent.js'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, runPost, type ActionRun, type ActionRunOptions } from './helpers/action-runner.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { readState, useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_threeJobsUpgradeToken0000000000001'
const LONG = 120_000
const TITLE = 'chore(deps): bump mathlib from 1.0.0 to 2.0.0'

describe('task: dependency-upgrade through the bundled action', () => {
  const svc = useCacheService()
  let registry: LocalRegistry
  let gh: GitHubServer

  beforeAll(async () => {
    registry = await startRegistry()
    const meta = { type: 'module', main: 'index.js', repository: { type: 'git', url: 'git+https://github.com/example/mathlib.git' } }
    registry.publish('mathlib', '1.0.0', { 'index.js': 'export function add(a, b) {\n  return a + b\n}\n' }, meta)
    // The new major renames the function the project calls.
    registry.publish('mathlib', '2.0.0', { 'index.js': 'export function sum(a, b) {\n  return a + b\n}\n' }, meta)
  }, LONG)
  afterAll(async () => {
    await registry?.stop()
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  /** A bare remote holding a project on mathlib@^1 (locked at 1.0.0) whose test goes through the call site. */
  function remote(): { server: string; bare: string; start: string } {
    const seed = makeRepo({
      'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module' }, null, 2),
      '.gitignore': 'node_modules\n',
      'src/calc.js': "import { add } from 'mathlib'\n\nexport function total(xs) {\n  return xs.reduce((a, b) => add(a, b), 0)\n}\n",
      'test/calc.test.js':
        "import { test } from 'node:test'\nimport assert from 'node:assert'\nimport { total } from '../src/calc.js'\n\ntest('total adds the numbers', () => {\n  assert.equal(total([1, 2, 3]), 6)\n})\n"
    })
    execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: seed, env: { ...process.env, ...registry.env }, stdio: 'pipe' })
    sh(seed, ['add', '-A'])
    sh(seed, ['commit', '-q', '-m', 'depend on mathlib'])
    const server = tempDir('loopgate-remote-')
    const bare = path.join(server, 'octo-org', 'octo-repo.git')
    sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
    sh(seed, ['push', '-q', bare, 'main'])
    return { server, bare, start: sh(seed, ['rev-parse', 'HEAD']).trim() }
  }

  /** A fresh runner each time (its own RUNNER_TEMP, a fresh clone): only the cache carries the state. */
  function runner(server: string, bare: string, loopId: string, inputs: Record<string, string>): ActionRunOptions {
    const parent = tempDir('loopgate-checkout-')
    sh(parent, ['clone', '-q', bare, 'ws'])
    return {
      workspace: path.join(parent, 'ws'),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: {
        ...svc.env(),
        GITHUB_API_URL: gh.url,
        // git ignores a file URL's host; @actions/cache needs a host that is not GHES.
        GITHUB_SERVER_URL: `file://git.localhost${server}`,
        GITHUB_REF: 'refs/heads/main',
        npm_config_registry: registry.url,
        npm_config_update_notifier: 'false'
      },
      inputs: {
        agent: 'command',
        task: 'dependency-upgrade',
        'loop-id': loopId,
        'allow-major': 'true',
        'gate-command': 'node --test',
        'gate-setup': 'npm ci --no-audit --no-fund',
        'agent-env': 'npm_config_registry',
        'max-iterations': '2',
        'max-open-prs': '5',
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        'github-token': TOKEN,
        ...inputs
      }
    }
  }

  const calls = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length : 0)
  const said = (r: ActionRun): string => `${r.stdout}\n${r.summary}`

  it(
    'bumps as its own first commit, the agent fixes the call site, one PR; the next run with nothing new makes no call',
    async () => {
      const { server, bare, start } = remote()
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/sum/g' src/calc.js`

      const first = await runAction(runner(server, bare, 'deps', { 'agent-command': fix }))
      if (first.outputs['stop-reason'] !== 'verified') console.log(first.stdout, first.stderr)
      expect(first.outputs['stop-reason']).toBe('verified')
      expect(first.exitCode).toBe(0)
      expect(calls(`${shared}/calls`)).toBe(1)
      expect(readFileSync(`${shared}/prompt.txt`, 'utf8')).toContain('Dependency upgrade: mathlib from 1.0.0 to 2.0.0 (a major upgrade')

      // One pull request, from the upgrade's own branch: loopgate's bump first, then the agent's fix.
      expect(gh.pulls).toHaveLength(1)
      const pull = gh.pulls[0]
      expect(pull).toMatchObject({ title: `${TITLE} (major)`, head: 'loopgate/deps-bump-mathlib-2.0.0', base: 'main' })
      const commits = sh(bare, ['rev-list', '--reverse', `${start}..${pull.head}`])
        .trim()
        .split('\n')
      expect(commits).toHaveLength(2)
      expect(sh(bare, ['log', '-1', '--format=%s', commits[0]]).trim()).toBe(TITLE)
      expect(sh(bare, ['diff', '--name-only', start, commits[0]]).trim().split('\n').sort()).toEqual(['package-lock.json', 'package.json'])
      expect(sh(bare, ['show', `${commits[1]}:src/calc.js`])).toContain('sum(a, b)')
      expect(pull.body).toMatch(/What the agent had to change beyond the bump\*\* \(1 file\(s\)\):\n- ` src\/calc\.js ` \+2\/−2/)
      expect(pull.body).not.toMatch(/^- ` package(-lock)?\.json `/m)

      // Another runner, nothing new published: the state (restored from the cache) says it is done.
      const second = await runAction(runner(server, bare, 'deps', { 'agent-command': fix }))
      expect(second.stdout).toMatch(/Cache hit for restore-key: loopgate-deps-\d+-1/)
      expect(second.outputs['stop-reason']).toBe('nothing-to-do')
      expect(second.outputs['spend-usd']).toBe('0.00')
      expect(said(second)).toMatch(/mathlib 1\.0\.0 → 2\.0\.0 verified in run \d+-1/)
      expect(calls(`${shared}/calls`)).toBe(1)
      expect(gh.requests.filter((q) => q.operationId === 'pulls/create')).toHaveLength(1)
      expect(gh.pulls).toHaveLength(1)
    },
    LONG
  )

  it(
    'a main step killed mid-call leaves the upgrade failed in the state: the next run does not call the agent on it again',
    async () => {
      const { server, bare } = remote()
      const shared = sharedTempDir()
      const started = path.join(shared, 'started')
      const sleeper = hangingSleep(shared)
      const hang = `touch ${started}; ${sleeper.exec}`
      const opts = runner(server, bare, 'deps-killed', { 'agent-command': hang })
      const main = await runAction({
        ...opts,
        onSpawn: (child) => {
          const timer = setInterval(() => existsSync(started) && child.kill('SIGKILL'), 100)
          child.on('exit', () => clearInterval(timer))
        }
      })
      if (main.signal !== 'SIGKILL') console.log(main.stdout, main.stderr)
      expect(main.signal).toBe('SIGKILL')
      killMarked(sleeper.marker)
      const post = await runPost(main, opts)
      expect(post.exitCode).toBe(0)
      expect(post.outputs['stop-reason']).toBe('cancelled')
      const saved = readState(main.files.runnerTemp, 'deps-killed')
      expect(saved.upgradeAttempts).toMatchObject([{ package: 'mathlib', from: '1.0.0', target: '2.0.0', outcome: 'failed', fingerprint: expect.any(String) }])

      // The next run, on another runner, sees the same package and version on the same base.
      const next = await runAction(runner(server, bare, 'deps-killed', { 'agent-command': `touch ${shared}/called-again` }))
      expect(next.stdout).toMatch(/Cache hit for restore-key: loopgate-deps-killed-\d+-1/)
      expect(next.outputs['stop-reason']).toBe('nothing-to-do')
      expect(said(next)).toMatch(/not upgraded: mathlib 1\.0\.0 → 2\.0\.0: mathlib 1\.0\.0 → 2\.0\.0 failed \(fingerprint \w+\)/)
      expect(existsSync(`${shared}/called-again`)).toBe(false)
      expect(gh.pulls).toHaveLength(0)
    },
    LONG
  )
})
