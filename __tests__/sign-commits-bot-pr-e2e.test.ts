/**
 * sign-commits on a dependency bot's pull request (task: fix-dependency-pr) through the bundled
 * action: the fix reaches the bot's branch as a commit GitHub created and signed through the Git
 * database endpoints of the local GitHub server, on top of the bot's commit, the bump untouched.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAction } from './helpers/action-runner.js'
import { GitHttpServer } from './servers/git-http.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { DEPENDABOT, workflowRunEvent } from './helpers/bot-events.js'

const TOKEN = 'ghs_signCommitsBotToken00000000000000001'
const FIX = `sed -i "s/join(' ')/join(', ')/" src/app.mjs`

const manifest = (greet: string): string => `${JSON.stringify({ name: 'app', version: '1.0.0', type: 'module', dependencies: { greet } }, null, 2)}\n`
const lockfile = (greet: string): string =>
  `${JSON.stringify(
    {
      name: 'app',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'app', version: '1.0.0', dependencies: { greet } },
        'node_modules/greet': {
          version: greet,
          resolved: `https://registry.npmjs.org/greet/-/greet-${greet}.tgz`,
          integrity: `sha512-${Buffer.from(`greet-${greet}`).toString('base64')}`
        }
      }
    },
    null,
    2
  )}\n`

/** src/app.mjs held to the greet version package.json names (2.x joins with a comma). */
const project = (): Record<string, string> => ({
  'package.json': manifest('1.0.0'),
  'package-lock.json': lockfile('1.0.0'),
  'src/app.mjs': "export function greeting() {\n  return ['hello', 'world'].join(' ')\n}\n",
  'test/run.mjs': [
    "import { readFileSync } from 'node:fs'",
    "import { greeting } from '../src/app.mjs'",
    "const greet = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).dependencies.greet",
    "const expected = greet.startsWith('2.') ? 'hello, world' : 'hello world'",
    "if (greeting() !== expected) { console.log('✕ greets as greet ' + greet + ' does'); process.exit(1) }",
    "console.log('✓ greets as greet ' + greet + ' does')",
    ''
  ].join('\n')
})

describe('sign-commits on a dependency bot pull request', () => {
  const svc = useCacheService()
  let gh: GitHubServer
  let git: GitHttpServer
  let serverUrl: string
  let bare: string

  beforeEach(async () => {
    const root = tempDir('loopgate-remote-')
    bare = path.join(root, 'octo-org', 'octo-repo.git')
    sh(root, ['init', '-q', '--bare', '-b', 'main', bare])
    sh(makeRepo(project()), ['push', '-q', bare, 'main'])
    gh = await startGitHubServer({ token: TOKEN, installation: true, gitDir: bare, collaborators: { 'octo-maintainer': 'admin' } })
    git = new GitHttpServer(root, TOKEN)
    serverUrl = (await git.listen()).replace('127.0.0.1', 'git.localhost')
  })
  afterEach(async () => {
    await git.close()
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const tip = (branch: string): string => sh(bare, ['rev-parse', `refs/heads/${branch}`]).trim()

  it("the fix lands on the bot's branch as a signed commit on top of the bot's, the bump byte-identical", async () => {
    const parent = tempDir('loopgate-checkout-')
    sh(parent, ['clone', '-q', '-b', 'main', bare, 'seed'])
    const seed = path.join(parent, 'seed')
    sh(seed, ['checkout', '-q', '-b', DEPENDABOT.branch])
    writeFileSync(path.join(seed, 'package.json'), manifest('2.0.0'))
    writeFileSync(path.join(seed, 'package-lock.json'), lockfile('2.0.0'))
    sh(seed, ['commit', '-q', '-am', DEPENDABOT.title, `--author=${DEPENDABOT.login} <${DEPENDABOT.id}+${DEPENDABOT.login}@users.noreply.github.com>`])
    sh(seed, ['push', '-q', 'origin', DEPENDABOT.branch])
    const head = tip(DEPENDABOT.branch)
    const pull = gh.addPull({
      head: DEPENDABOT.branch,
      headSha: head,
      labels: ['dependencies'],
      author: DEPENDABOT.login,
      title: DEPENDABOT.title,
      body: DEPENDABOT.body
    })
    sh(parent, ['clone', '-q', '-b', 'main', bare, 'ws'])

    const r = await runAction({
      workspace: path.join(parent, 'ws'),
      eventName: 'workflow_run',
      event: workflowRunEvent({ bot: DEPENDABOT, pr: pull.number, head, base: tip('main') }),
      env: {
        ...svc.env(),
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_ACTOR: DEPENDABOT.login,
        GITHUB_TRIGGERING_ACTOR: DEPENDABOT.login,
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
        'agent-command': FIX
      }
    })
    if (r.outputs['stop-reason'] !== 'verified') console.log(r.stdout, r.stderr, r.summary)
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(r.exitCode).toBe(0)

    const pushed = tip(DEPENDABOT.branch)
    expect(sh(bare, ['rev-parse', `${pushed}~1`]).trim()).toBe(head)
    const headers = sh(bare, ['cat-file', 'commit', pushed]).split('\n\n')[0]
    expect(headers).toContain('\ngpgsig ')
    expect(headers).toContain('committer GitHub <noreply@github.com>')
    expect(gh.createdCommits.map((c) => c.sha)).toEqual([pushed])
    expect(sh(bare, ['diff', '--name-only', head, pushed]).trim()).toBe('src/app.mjs')
    expect(sh(bare, ['show', `${pushed}:src/app.mjs`])).toContain("join(', ')")
    expect(gh.requests.filter((q) => q.operationId === 'git/update-ref').map((q) => q.body)).toEqual([{ sha: pushed, force: false }])
    expect(pull.comments[0]).toContain(`pushed it to \`${DEPENDABOT.branch}\``)
  }, 120_000)
})
