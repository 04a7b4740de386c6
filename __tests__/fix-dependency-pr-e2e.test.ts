/**
 * task: fix-dependency-pr through the bundled action as the runner runs it: the recorded
 * `workflow_run` and `check_suite` payloads of a Dependabot and a Renovate pull request, a real git
 * remote over smart HTTP, the local GitHub server, the loop state through the real @actions/cache.
 * The workflow checked out the default branch, as a workflow_run does: loopgate fetches the pull
 * request's head itself.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, type ActionRun } from './helpers/action-runner.js'
import { GitHttpServer } from './servers/git-http.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { useCacheService } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { checkSuiteEvent, DEPENDABOT, RENOVATE, workflowRunEvent, type Bot, type BotCheck } from './helpers/bot-events.js'

const TOKEN = 'ghs_fixDependencyPrToken000000000000001'
const LONG = 90_000
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

/** A project whose test holds src/app.mjs to the greet version package.json names (2.x joins with a comma). */
function project(): Record<string, string> {
  return {
    'package.json': manifest('1.0.0'),
    'package-lock.json': lockfile('1.0.0'),
    'src/app.mjs': "export function greeting() {\n  return ['hello', 'world'].join(' ')\n}\n",
    'test/run.mjs': [
      "import { readFileSync } from 'node:fs'",
      "import { greeting } from '../src/app.mjs'",
      "const greet = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).dependencies.greet",
      "const expected = greet.startsWith('2.') ? 'hello, world' : 'hello world'",
      "if (greeting() !== expected) { console.log('✕ greets as greet ' + greet + ' does'); console.log('  expected ' + expected + ', got ' + greeting()); process.exit(1) }",
      "console.log('✓ greets as greet ' + greet + ' does')",
      ''
    ].join('\n')
  }
}

describe('task: fix-dependency-pr through the bundled action', () => {
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
    sh(makeRepo(project()), ['push', '-q', bare, 'main'])
    git = new GitHttpServer(root, TOKEN)
    serverUrl = (await git.listen()).replace('127.0.0.1', 'git.localhost')
  })
  afterEach(async () => {
    await git.close()
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const tip = (branch: string): string => sh(bare, ['rev-parse', `refs/heads/${branch}`]).trim()
  const blob = (rev: string, file: string): string => sh(bare, ['rev-parse', `${rev}:${file}`]).trim()

  /** The workspace as actions/checkout leaves it in a workflow_run: the default branch. */
  function checkout(shallow = false): string {
    const parent = tempDir('loopgate-checkout-')
    sh(parent, ['clone', '-q', '-b', 'main', ...(shallow ? ['--depth=1', `file://${bare}`] : [bare]), 'ws'])
    return path.join(parent, 'ws')
  }

  /** The bot's pull request: its branch with one commit bumping greet to 2.0.0 in the manifest and the lockfile. */
  function botPull(
    bot: Bot,
    opts: { author?: string; headRepo?: string; alsoWrites?: Record<string, string>; to?: string } = {}
  ): ReturnType<GitHubServer['addPull']> {
    const seed = checkout()
    sh(seed, ['checkout', '-q', '-b', bot.branch])
    sh(path.join(seed), ['config', 'user.name', bot.login])
    writeFileSync(path.join(seed, 'package.json'), manifest(opts.to ?? '2.0.0'))
    writeFileSync(path.join(seed, 'package-lock.json'), lockfile(opts.to ?? '2.0.0'))
    for (const [file, text] of Object.entries(opts.alsoWrites ?? {})) {
      mkdirSync(path.dirname(path.join(seed, file)), { recursive: true })
      writeFileSync(path.join(seed, file), text)
    }
    sh(seed, ['add', '-A'])
    sh(seed, ['commit', '-q', '-am', bot.title, `--author=${bot.login} <${bot.id}+${bot.login}@users.noreply.github.com>`])
    sh(seed, ['push', '-q', 'origin', bot.branch])
    return gh.addPull({
      head: bot.branch,
      headSha: tip(bot.branch),
      labels: ['dependencies'],
      author: opts.author ?? bot.login,
      title: bot.title,
      body: bot.body,
      ...(opts.headRepo ? { headRepo: opts.headRepo } : {})
    })
  }

  // A loop of its own per test: the cache service, and so the loop state, is shared by the file.
  let loops = 0
  beforeEach(() => void loops++)

  const run = (eventName: string, event: Record<string, unknown>, inputs: Record<string, string>, actor: string, shallow = false): Promise<ActionRun> =>
    runAction({
      workspace: checkout(shallow),
      eventName,
      event,
      env: {
        ...svc.env(),
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: serverUrl,
        GITHUB_REF: 'refs/heads/main',
        GITHUB_ACTOR: actor,
        GITHUB_TRIGGERING_ACTOR: actor,
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
        'loop-id': `dependency-prs-${loops}`,
        ...inputs
      }
    })

  const checkOf = (eventName: 'workflow_run' | 'check_suite', check: BotCheck): Record<string, unknown> =>
    eventName === 'workflow_run' ? workflowRunEvent(check) : checkSuiteEvent(check)

  it.each([
    ['Dependabot', 'workflow_run', 'a full checkout', DEPENDABOT],
    ['Renovate', 'check_suite', 'a depth-1 checkout', RENOVATE]
  ] as const)(
    "%s's pull request failed its %s (%s of the default branch): the fix lands on top of the bot's commit, the bump byte-identical, and a comment names the files changed",
    async (_who, eventName, depth, bot) => {
      const pull = botPull(bot)
      const head = pull.headSha!
      const prompts = sharedTempDir()
      const r = await run(
        eventName,
        checkOf(eventName, { bot, pr: pull.number, head, base: tip('main') }),
        { 'agent-command': `cp "$LOOPGATE_PROMPT_FILE" ${prompts}/prompt-$LOOPGATE_ITERATION.txt; ${FIX}` },
        bot.login,
        depth === 'a depth-1 checkout'
      )
      if (r.outputs['stop-reason'] !== 'verified') console.log(r.stdout, r.stderr, r.summary)
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).toBe(0)

      // The prompt says what was bumped, that it stays, and carries the bot's release notes as data.
      const prompt = readFileSync(path.join(prompts, 'prompt-1.txt'), 'utf8')
      expect(prompt).toContain(`Dependency update by ${bot.login}: pull request #${pull.number}`)
      expect(prompt).toContain('- greet: 1.0.0 → 2.0.0')
      expect(prompt).toContain('It stays')
      expect(prompt).toContain('The bump is in package-lock.json, package.json')
      expect(prompt).toContain('RELEASE-NOTE-MARKER')

      // Pushed onto the bot's branch, never forced: the bot's commit stays, the fix is on top, the bump untouched.
      const pushed = tip(bot.branch)
      expect(pushed).not.toBe(head)
      expect(sh(bare, ['merge-base', '--is-ancestor', head, pushed])).toBe('')
      expect(sh(bare, ['diff', '--name-only', head, pushed]).trim().split('\n')).toEqual(['src/app.mjs'])
      for (const file of ['package.json', 'package-lock.json']) expect(blob(pushed, file)).toBe(blob(head, file))
      expect(sh(bare, ['show', `${pushed}:src/app.mjs`])).toContain("join(', ')")
      expect(tip('main')).toBe(sh(bare, ['rev-parse', `${head}~1`]).trim())

      // One comment on the pull request, naming the files changed; no new pull request, no issue.
      expect(pull.comments).toHaveLength(1)
      expect(pull.comments[0]).toContain(`pushed it to \`${bot.branch}\``)
      expect(pull.comments[0]).toContain('| ` src/app.mjs ` | 1 | 1 |')
      expect(pull.comments[0]).not.toContain('package-lock.json')
      expect(gh.pulls).toHaveLength(1)
      expect(gh.issues).toHaveLength(0)
    },
    LONG
  )

  it.each([
    ['a fork (GitHub lists no pull request on the workflow_run)', 'workflow_run', { fork: true }, {}, 'GitHub lists none for a fork'],
    ['a fork (the API names the head repository)', 'check_suite', {}, { headRepo: 'someone/octo-repo' }, 'comes from a fork (someone/octo-repo)'],
    ['a person, not one of dependency-bots', 'workflow_run', {}, { author: 'contributor' }, 'was opened by contributor, not by one of dependency-bots'],
    ['a check that passed', 'workflow_run', { conclusion: 'success' }, {}, "concluded 'success'; fix-dependency-pr answers only a check that failed"],
    [
      'a bot whose bump also changes a protected path, which the run would restore from the base',
      'workflow_run',
      {},
      { alsoWrites: { '.github/workflows/ci.yml': 'name: CI\n' } },
      'changes protected paths (.github/workflows/ci.yml)'
    ]
  ] as const)(
    'a pull request from %s is refused before anything is spent or written to it',
    async (_what, eventName, check, pullOpts, words) => {
      const pull = botPull(DEPENDABOT, pullOpts)
      const head = pull.headSha!
      const marker = path.join(sharedTempDir(), 'called')
      const r = await run(
        eventName,
        checkOf(eventName, { bot: DEPENDABOT, pr: pull.number, head, base: tip('main'), ...check }),
        { 'agent-command': `touch ${marker}` },
        DEPENDABOT.login
      )
      expect(r.outputs['stop-reason']).toBe('nothing-to-do')
      expect(r.outputs.outcome).toBe('skipped')
      expect(r.outputs['spend-usd']).toBe('0.00')
      expect(r.summary).toContain(words)
      expect(existsSync(marker)).toBe(false)
      expect(tip(DEPENDABOT.branch)).toBe(head)
      expect(pull.comments).toEqual([])
      expect(gh.requests.map((q) => q.operationId)).not.toContain('issues/create-comment')
    },
    LONG
  )

  it(
    'a branch that moved on since the check failed (and the API answered) is skipped when fetched: the newer commit decides',
    async () => {
      const pull = botPull(DEPENDABOT)
      const failedOn = pull.headSha!
      const seed = checkout()
      sh(seed, ['fetch', '-q', 'origin', DEPENDABOT.branch])
      sh(seed, ['checkout', '-q', '-b', 'rebased', 'FETCH_HEAD'])
      sh(seed, ['commit', '-q', '--allow-empty', '-m', 'Dependabot rebased'])
      sh(seed, ['push', '-q', 'origin', `rebased:${DEPENDABOT.branch}`])
      const marker = path.join(sharedTempDir(), 'called')
      const r = await run(
        'workflow_run',
        workflowRunEvent({ bot: DEPENDABOT, pr: pull.number, head: failedOn, base: tip('main') }),
        { 'agent-command': `touch ${marker}` },
        DEPENDABOT.login
      )
      expect(r.outputs['stop-reason']).toBe('nothing-to-do')
      expect(r.summary).toContain('it moved on, and the newer commit')
      expect(existsSync(marker)).toBe(false)
      expect(pull.comments).toEqual([])
    },
    LONG
  )

  it(
    "an agent that gives up: the bot's branch is left as it is and the pull request gets a comment with the attempt log",
    async () => {
      const pull = botPull(DEPENDABOT)
      const head = pull.headSha!
      const r = await run(
        'workflow_run',
        workflowRunEvent({ bot: DEPENDABOT, pr: pull.number, head, base: tip('main') }),
        { 'agent-command': `printf 'greet 2 needs a locale the project does not have: GIVE-UP-REASON\\n' > "$LOOPGATE_GIVE_UP_FILE"` },
        DEPENDABOT.login
      )
      expect(r.outputs['stop-reason']).toBe('agent-gave-up')
      expect(tip(DEPENDABOT.branch)).toBe(head)
      expect(pull.comments).toHaveLength(1)
      const comment = pull.comments[0]
      expect(comment).toContain('stopped: `agent-gave-up`')
      expect(comment).toContain('GIVE-UP-REASON')
      expect(comment).toContain('**Attempt log:**')
      expect(gh.issues).toHaveLength(0)
      expect(gh.pulls).toHaveLength(1)
    },
    LONG
  )

  it(
    "a bump whose gate passes already (the failed check is not the gate's): no agent call, nothing pushed",
    async () => {
      const pull = botPull(DEPENDABOT, { to: '1.0.1' })
      const head = pull.headSha!
      const marker = path.join(sharedTempDir(), 'called')
      const r = await run(
        'workflow_run',
        workflowRunEvent({ bot: DEPENDABOT, pr: pull.number, head, base: tip('main') }),
        { 'agent-command': `touch ${marker}` },
        DEPENDABOT.login
      )
      expect(r.outputs['stop-reason']).toBe('nothing-to-do')
      expect(r.outputs['spend-usd']).toBe('0.00')
      expect(existsSync(marker)).toBe(false)
      expect(tip(DEPENDABOT.branch)).toBe(head)
    },
    LONG
  )

  it(
    'runs on one pull request count against max-runs-per-pr: past it, the next failed check stops before anything is spent',
    async () => {
      const pull = botPull(RENOVATE)
      const head = pull.headSha!
      const event = checkSuiteEvent({ bot: RENOVATE, pr: pull.number, head, base: tip('main') })
      const inputs = { 'max-runs-per-pr': '1', 'agent-command': `printf 'no way: GIVE-UP-REASON\\n' > "$LOOPGATE_GIVE_UP_FILE"` }
      const first = await run('check_suite', event, inputs, RENOVATE.login)
      expect(first.outputs['stop-reason']).toBe('agent-gave-up')
      const marker = path.join(sharedTempDir(), 'called')
      const second = await run('check_suite', event, { ...inputs, 'agent-command': `touch ${marker}` }, RENOVATE.login)
      expect(second.outputs['stop-reason']).toBe('review-capacity')
      expect(second.summary).toContain(`pull request #${pull.number} has had 1 loop run(s), the most max-runs-per-pr (1) allows`)
      expect(existsSync(marker)).toBe(false)
      expect(pull.comments).toHaveLength(1)
      expect(tip(RENOVATE.branch)).toBe(head)
    },
    LONG
  )

  it(
    "an agent that moves the bump back is refused by the dependency protection: nothing reaches the bot's branch",
    async () => {
      const pull = botPull(DEPENDABOT)
      const head = pull.headSha!
      const revert = `sed -i 's/"2.0.0"/"1.0.0"/' package.json package-lock.json; sed -i 's/greet-2.0.0/greet-1.0.0/' package-lock.json`
      const r = await run(
        'workflow_run',
        workflowRunEvent({ bot: DEPENDABOT, pr: pull.number, head, base: tip('main') }),
        { 'agent-command': revert },
        DEPENDABOT.login
      )
      expect(r.outputs['stop-reason']).toBe('protected-tampering')
      expect(tip(DEPENDABOT.branch)).toBe(head)
      expect(pull.comments).toHaveLength(1)
      expect(pull.comments[0]).toContain('stopped: `protected-tampering`')
      expect(pull.comments[0]).toContain('dependency changes refused and reverted to the reference resolution: package-lock.json')
    },
    LONG
  )
})
