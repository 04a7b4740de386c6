/**
 * task: fix-dependency-pr's own reading: the inputs, the failed check read from recorded event
 * payloads, the pull request refused or taken, the bump named from the bots' words and from the
 * manifests of a real repository.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { readFailedBotCheck } from '../src/bot-pr/bot-event.js'
import { botPullOrRefusal } from '../src/bot-pr/bot-pull.js'
import { packagesInText } from '../src/bot-pr/bot-bump.js'
import { manifestBumps } from '../src/bot-pr/manifest-bumps.js'
import { GitRepository } from '../src/git/repository.js'
import { ConfigError } from '../src/errors.js'
import { settingsFor } from './helpers/settings.js'
import { makeRepo, sh } from './helpers/repo.js'
import { checkSuiteEvent, DEPENDABOT, RENOVATE, workflowRunEvent } from './helpers/bot-events.js'

const HEAD = 'a'.repeat(40)
const BASE = 'b'.repeat(40)

describe('the inputs of task: fix-dependency-pr', () => {
  it('dependency-bots defaults to Dependabot and Renovate; the task pushes onto the PR and comments there, and lets the bots cause the run', () => {
    const s = settingsFor(makeRepo({ a: '1' }), { prompt: '', task: 'fix-dependency-pr', 'gate-command': 'true', 'agent-command': 'true' })
    expect(s.dependencyBots).toEqual(['dependabot[bot]', 'renovate[bot]'])
    expect(s.onSuccess).toBe('push')
    expect(s.onEscalate).toBe('comment')
    expect(s.allowUsers).toEqual(['dependabot[bot]', 'renovate[bot]'])
  })

  it('dependency-bots is a list; on-success and on-escalate none stay none; other tasks are left as they are', () => {
    const repo = makeRepo({ a: '1' })
    const s = settingsFor(repo, {
      prompt: '',
      task: 'fix-dependency-pr',
      'gate-command': 'true',
      'agent-command': 'true',
      'dependency-bots': 'acme-deps[bot]\nRenovate[bot]',
      'allow-users': 'renovate[bot]',
      'on-success': 'none',
      'on-escalate': 'none'
    })
    expect(s.dependencyBots).toEqual(['acme-deps[bot]', 'Renovate[bot]'])
    expect([s.onSuccess, s.onEscalate]).toEqual(['none', 'none'])
    expect(s.allowUsers).toEqual(['renovate[bot]', 'acme-deps[bot]'])
    const prompt = settingsFor(repo, { 'gate-command': 'true', 'agent-command': 'true' })
    expect([prompt.onSuccess, prompt.onEscalate, prompt.allowUsers]).toEqual(['pull-request', 'issue', []])
  })

  it('the task with a prompt is a config error', () => {
    expect(() => settingsFor(makeRepo({ a: '1' }), { task: 'fix-dependency-pr', 'gate-command': 'true', 'agent-command': 'true' })).toThrow(ConfigError)
  })
})

describe('the failed check, read from the event', () => {
  it.each([
    ['workflow_run', workflowRunEvent],
    ['check_suite', checkSuiteEvent]
  ] as const)('a failed %s of one same-repository pull request names it and the head it failed on', (eventName, build) => {
    const check = readFailedBotCheck(eventName, build({ bot: DEPENDABOT, pr: 7, head: HEAD, base: BASE }))
    expect(check).toEqual({ event: eventName, name: eventName === 'workflow_run' ? 'CI' : 'Acme CI', pull: 7, headSha: HEAD })
  })

  it('refuses a check that passed, a fork (no pull request listed), two pull requests, and another event', () => {
    const passed = readFailedBotCheck('workflow_run', workflowRunEvent({ bot: RENOVATE, pr: 7, head: HEAD, base: BASE, conclusion: 'success' }))
    expect(passed).toMatchObject({ kind: 'refused', message: expect.stringContaining("concluded 'success'") })
    const fork = readFailedBotCheck('check_suite', checkSuiteEvent({ bot: RENOVATE, pr: 7, head: HEAD, base: BASE, fork: true }))
    expect(fork).toMatchObject({ kind: 'refused', message: expect.stringContaining('GitHub lists none for a fork') })
    const two = workflowRunEvent({ bot: RENOVATE, pr: 7, head: HEAD, base: BASE })
    two.workflow_run.pull_requests.push({ ...two.workflow_run.pull_requests[0], number: 8 })
    expect(readFailedBotCheck('workflow_run', two)).toMatchObject({ kind: 'refused', message: expect.stringContaining('2 pull requests') })
    const other = readFailedBotCheck('pull_request', { action: 'opened' })
    expect(other).toMatchObject({ kind: 'refused', misconfigured: true })
    const requested = workflowRunEvent({ bot: RENOVATE, pr: 7, head: HEAD, base: BASE })
    requested.action = 'requested'
    expect(readFailedBotCheck('workflow_run', requested)).toMatchObject({ kind: 'refused', message: expect.stringContaining("'requested'") })
  })
})

describe('the pull request, as the API answers it', () => {
  const check = { event: 'workflow_run' as const, name: 'CI', pull: 7, headSha: HEAD }
  const answer = (over: { login?: string; headRepo?: string; sha?: string } = {}) => ({
    number: 7,
    html_url: 'https://github.com/octo-org/octo-repo/pull/7',
    title: DEPENDABOT.title,
    body: null,
    user: { login: over.login ?? 'dependabot[bot]' },
    head: { ref: DEPENDABOT.branch, sha: over.sha ?? HEAD, repo: { full_name: over.headRepo ?? 'octo-org/octo-repo' } },
    base: { ref: 'main', repo: { full_name: 'octo-org/octo-repo' } }
  })
  const bots = ['dependabot[bot]', 'renovate[bot]']

  it("takes a bot's pull request from a branch of the repository (logins compare without case)", () => {
    expect(botPullOrRefusal(answer({ login: 'Dependabot[bot]' }), check, bots)).toMatchObject({
      number: 7,
      author: 'Dependabot[bot]',
      headBranch: DEPENDABOT.branch,
      headSha: HEAD,
      baseBranch: 'main',
      body: ''
    })
  })

  it('refuses a fork, an author outside dependency-bots, and a head that moved on', () => {
    expect(botPullOrRefusal(answer({ headRepo: 'someone/octo-repo' }), check, bots)).toMatchObject({ message: expect.stringContaining('comes from a fork') })
    expect(botPullOrRefusal(answer({ login: 'contributor' }), check, bots)).toMatchObject({ message: expect.stringContaining('opened by contributor') })
    expect(botPullOrRefusal(answer({ sha: 'c'.repeat(40) }), check, bots)).toMatchObject({ message: expect.stringContaining('has moved on') })
  })
})

describe('the bump', () => {
  it("reads the package and versions from Dependabot's and Renovate's titles, bodies and tables", () => {
    expect(packagesInText(DEPENDABOT.title, '')).toEqual([{ name: 'greet', from: '1.0.0', to: '2.0.0' }])
    expect(packagesInText('', DEPENDABOT.body)).toEqual([{ name: 'greet', from: '1.0.0', to: '2.0.0' }])
    expect(packagesInText(RENOVATE.title, '')).toEqual([{ name: 'greet', from: null, to: '2' }])
    expect(packagesInText('', RENOVATE.body)).toEqual([{ name: 'greet', from: '1.0.0', to: '2.0.0' }])
    expect(packagesInText('chore(deps-dev): bump @types/node from 20.1.0 to 22.0.1 in /app', '')).toEqual([
      { name: '@types/node', from: '20.1.0', to: '22.0.1' }
    ])
    expect(packagesInText('fix(deps): update dependency @scope/pkg to v3.1.0', '| [@scope/pkg](https://x) | [`3.0.0` → `3.1.0`](https://y) |')).toEqual([
      { name: '@scope/pkg', from: null, to: '3.1.0' },
      { name: '@scope/pkg', from: '3.0.0', to: '3.1.0' }
    ])
    expect(packagesInText('Add a feature', 'Nothing about dependencies.')).toEqual([])
  })

  it('reads the specs a package.json of the bump moved, added and removed, in a real repository', async () => {
    const manifest = (deps: Record<string, string>, dev: Record<string, string> = {}) =>
      JSON.stringify({ name: 'app', dependencies: deps, devDependencies: dev }, null, 2)
    const repo = makeRepo({ 'package.json': manifest({ greet: '1.0.0', keep: '^1.0.0' }, { old: '1.0.0' }), 'web/package.json': manifest({ a: '1' }) })
    const baseCommit = sh(repo, ['rev-parse', 'HEAD']).trim()
    writeFileSync(path.join(repo, 'package.json'), manifest({ greet: '2.0.0', keep: '^1.0.0' }, { added: '3.0.0' }))
    writeFileSync(path.join(repo, 'web/package.json'), manifest({ a: '2' }))
    sh(repo, ['commit', '-q', '-am', 'bump'])
    const headCommit = sh(repo, ['rev-parse', 'HEAD']).trim()
    const found = await manifestBumps(GitRepository.plain(repo), { baseCommit, headCommit }, ['package.json', 'web/package.json'])
    expect(found).toEqual([
      { name: 'greet', from: '1.0.0', to: '2.0.0' },
      { name: 'added', from: null, to: '3.0.0' },
      { name: 'old', from: '1.0.0', to: null },
      { name: 'a', from: '1', to: '2' }
    ])
  })
})
