/**
 * task: fix-dependency-pr through the bundled action on pull requests that bump no package.json
 * entry: a Dependabot group bump of requirements.txt pins, and a Renovate lock file maintenance
 * that moves only a transitive dependency in package-lock.json. The packages are read from the
 * diff against the base; the guard holds the bot's entries as the bot left them.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, type ActionRun } from './helpers/action-runner.js'
import { GitHttpServer } from './servers/git-http.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { DEPENDABOT, RENOVATE, workflowRunEvent, type Bot } from './helpers/bot-events.js'
import { promptOf, scriptedAgent } from './helpers/scripted-agent.js'

const TOKEN = 'ghs_fixDependencyPrToken000000000000002'
const LONG = 120_000
const FIX = `sed -i "s/join(' ')/join(', ')/" src/app.mjs`
const APP = "export function greeting() {\n  return ['hello', 'world'].join(' ')\n}\n"

/** A gate that holds src/app.mjs to the greet version `versionOf` reads (from 2.x, or greet-core 1.0.1, it joins with a comma). */
const gate = (versionOf: string, comma: string): string =>
  [
    "import { readFileSync } from 'node:fs'",
    "import { greeting } from '../src/app.mjs'",
    "const read = (f) => readFileSync(new URL('../' + f, import.meta.url), 'utf8')",
    `const version = ${versionOf}`,
    `const expected = ${comma} ? 'hello, world' : 'hello world'`,
    "if (greeting() !== expected) { console.log('✕ greets as ' + version + ' does'); console.log('  expected ' + expected + ', got ' + greeting()); process.exit(1) }",
    "console.log('✓ greets as ' + version + ' does')",
    ''
  ].join('\n')

const requirements = (greet: string, six: string): string => `# runtime\nlg-greet==${greet}  # the greeting\nsix==${six}\n`
const PIP_PROJECT = {
  'requirements.txt': requirements('1.0.0', '1.16.0'),
  'src/app.mjs': APP,
  'test/run.mjs': gate("/lg-greet==(\\S+)/.exec(read('requirements.txt'))[1]", "version.startsWith('2.')")
}

const entry = (name: string, version: string, deps?: Record<string, string>) => ({
  version,
  resolved: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`,
  integrity: `sha512-${Buffer.from(`${name}-${version}`).toString('base64')}`,
  ...(deps ? { dependencies: deps } : {})
})
const npmLock = (core: string): string =>
  `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { greet: '^1.0.0' } },
        'node_modules/greet': entry('greet', '1.0.0', { 'greet-core': '^1.0.0' }),
        'node_modules/greet-core': entry('greet-core', core)
      }
    },
    null,
    2
  )}\n`
const NPM_PROJECT = {
  'package.json': `${JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', dependencies: { greet: '^1.0.0' } }, null, 2)}\n`,
  'package-lock.json': npmLock('1.0.0'),
  'src/app.mjs': APP,
  'test/run.mjs': gate("JSON.parse(read('package-lock.json')).packages['node_modules/greet-core'].version", "version !== '1.0.0'")
}

/** Dependabot's group pull request: its title and body name the group, and no `bump x from a to b`. */
const PIP_GROUP: Bot = {
  ...DEPENDABOT,
  branch: 'dependabot/pip/pip-group-1a2b3c',
  title: 'Bump the pip group with 2 updates',
  body: 'Updates the requirements on lg-greet and six to permit the latest versions.\nUpdates `lg-greet` to 2.0.0\nUpdates `six` to 1.17.0\n'
}
/** Renovate's lock file maintenance: every lock refreshed, no package named. */
const LOCK_MAINTENANCE: Bot = {
  ...RENOVATE,
  branch: 'renovate/lock-file-maintenance',
  title: 'chore(deps): lock file maintenance',
  body: 'This PR contains the following updates:\n\n| Update | Change |\n|---|---|\n| lockFileMaintenance | All locks refreshed |\n'
}

describe.each([
  ['a Dependabot group bump of requirements.txt pins', PIP_PROJECT, PIP_GROUP, { 'requirements.txt': requirements('2.0.0', '1.17.0') }],
  [
    "Renovate's lock file maintenance moving a transitive dependency in package-lock.json only",
    NPM_PROJECT,
    LOCK_MAINTENANCE,
    { 'package-lock.json': npmLock('1.0.1') }
  ]
] as const)('task: fix-dependency-pr on %s', (_what, project, bot, bumped) => {
  const svc = useCacheService()
  let gh: GitHubServer
  let git: GitHttpServer
  let serverUrl: string
  let bare: string

  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN, collaborators: { 'octo-maintainer': 'admin' } })
    const root = tempDir('loopgate-remote-')
    bare = path.join(root, 'octo-org', 'octo-repo.git')
    sh(root, ['init', '-q', '--bare', '-b', 'main', bare])
    sh(makeRepo(project), ['push', '-q', bare, 'main'])
    git = new GitHttpServer(root, TOKEN)
    serverUrl = (await git.listen()).replace('127.0.0.1', 'git.localhost')
  })
  afterEach(async () => {
    await git.close()
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const tip = (branch: string): string => sh(bare, ['rev-parse', `refs/heads/${branch}`]).trim()
  const checkout = (): string => {
    const parent = tempDir('loopgate-checkout-')
    sh(parent, ['clone', '-q', '-b', 'main', bare, 'ws'])
    return path.join(parent, 'ws')
  }

  function botPull(): ReturnType<GitHubServer['addPull']> {
    const seed = checkout()
    sh(seed, ['checkout', '-q', '-b', bot.branch])
    for (const [file, text] of Object.entries(bumped)) writeFileSync(path.join(seed, file), text)
    sh(seed, ['commit', '-q', '-am', bot.title, `--author=${bot.login} <${bot.id}+${bot.login}@users.noreply.github.com>`])
    sh(seed, ['push', '-q', 'origin', bot.branch])
    return gh.addPull({ head: bot.branch, headSha: tip(bot.branch), labels: ['dependencies'], author: bot.login, title: bot.title, body: bot.body })
  }

  const run = (event: Record<string, unknown>, agentCommand: string): Promise<ActionRun> =>
    runAction({
      workspace: checkout(),
      eventName: 'workflow_run',
      event,
      env: {
        ...svc.env(),
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_ACTOR: bot.login,
        GITHUB_TRIGGERING_ACTOR: bot.login,
        GITHUB_WORKFLOW: 'loopgate fix dependency PRs',
        GITHUB_JOB: 'fix'
      },
      inputs: {
        agent: 'command',
        task: 'fix-dependency-pr',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        'max-iterations': '2',
        'loop-id': 'dependency-prs',
        'agent-command': agentCommand
      }
    })

  it(
    "names the packages from the diff; the agent that moves the bot's entry back is refused and undone, its fix on top of the bot's commit is verified and pushed",
    async () => {
      const pull = botPull()
      const head = pull.headSha!
      const shared = sharedTempDir()
      const [file] = Object.keys(bumped)
      const back = `cp @SHARED/base-${path.basename(file)} ${file}`
      writeFileSync(path.join(shared, `base-${path.basename(file)}`), (project as Record<string, string>)[file])
      const r = await run(workflowRunEvent({ bot, pr: pull.number, head, base: tip('main') }), scriptedAgent(shared, [back, FIX]))
      if (r.outputs['stop-reason'] !== 'verified') console.log(r.stdout.slice(-6000), r.stderr.slice(-3000))
      expect(r.outputs['stop-reason']).toBe('verified')

      const first = promptOf(shared, 1)
      const second = promptOf(shared, 2)
      if (file === 'requirements.txt') {
        expect(first).toContain('What it bumps:\n- lg-greet: 1.0.0 → 2.0.0\n- six: 1.16.0 → 1.17.0\n')
        expect(second).toMatch(/requirements\.txt \(lg-greet changed; six changed: lg-greet, six are the bot's bump in this pull request and is fixed/)
      } else {
        expect(first).toContain('What it bumps:\n- greet-core: 1.0.0 → 1.0.1\n')
        expect(second).toMatch(/package-lock\.json \(node_modules\/greet-core changed: greet-core is the bot's bump in this pull request and is fixed/)
      }
      const pushed = tip(bot.branch)
      expect(sh(bare, ['merge-base', '--is-ancestor', head, pushed])).toBe('')
      expect(sh(bare, ['diff', '--name-only', head, pushed]).trim()).toBe('src/app.mjs')
      expect(sh(bare, ['rev-parse', `${pushed}:${file}`])).toBe(sh(bare, ['rev-parse', `${head}:${file}`]))
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(2)
    },
    LONG
  )
})
