import { existsSync } from 'node:fs'
import path from 'node:path'
import { GITHUB_ACTIONS_AUTHOR, LOCAL_AUTHOR } from '../src/git/author.js'
import { remoteFromEnv } from '../src/git/clean-clone.js'
import { actorRefusal, runActors } from '../src/github/actor.js'
import { createClient } from '../src/github/client.js'
import type { EventPlan } from '../src/github/events.js'
import { tokenAuthor } from '../src/github/identity.js'
import { GitHubPublisher } from '../src/publish/github/publisher.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { NO_CI_LINE } from '../src/publish/pull-request-body.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { preLoopSummary } from '../src/report/markdown.js'
import { executeRun } from '../src/run/execute-run.js'
import { startGitHubServer, type GitHubServer, type GitHubServerOptions } from './github-server/server.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'

// Who loopgate's commits are by, and who may start a loop, asked of the local GitHub server.

const TOKEN = 'ghs_identityTestToken00000000000000000001'
const REPO = { owner: 'octo-org', repo: 'octo-repo' }
const servers: GitHubServer[] = []

async function server(opts: Partial<GitHubServerOptions> = {}): Promise<GitHubServer> {
  const gh = await startGitHubServer({ token: TOKEN, ...opts })
  servers.push(gh)
  return gh
}
afterEach(async () => {
  for (const gh of servers.splice(0)) {
    await gh.close()
    expect(gh.violations).toEqual([])
  }
})

const client = (gh: GitHubServer, warnings: string[] = []) => createClient(TOKEN, { GITHUB_API_URL: gh.url }, (m) => warnings.push(m))
const ops = (gh: GitHubServer) => gh.requests.map((r) => r.operationId)

describe('the token’s commit identity', () => {
  test('a user token: its login and id, as GitHub’s no-reply address', async () => {
    const gh = await server({ login: 'octo-dev', id: 4242 })
    expect(await tokenAuthor(client(gh), () => undefined)).toEqual({ name: 'octo-dev', email: '4242+octo-dev@users.noreply.github.com' })
  })

  test('the workflow’s GITHUB_TOKEN: github-actions[bot]', async () => {
    const gh = await server({ installation: true })
    expect(await tokenAuthor(client(gh), () => undefined)).toEqual({
      name: 'github-actions[bot]',
      email: '41898282+github-actions[bot]@users.noreply.github.com'
    })
  })

  test('a GitHub App’s token: its bot, the id from GraphQL or else from GET /users/{login}', async () => {
    const app = await server({ installation: true, login: 'loopgate-app[bot]', id: 777 })
    expect(await tokenAuthor(client(app), () => undefined)).toEqual({ name: 'loopgate-app[bot]', email: '777+loopgate-app[bot]@users.noreply.github.com' })
    expect(ops(app)).toContain('users/get-by-username')
    const withId = await server({ installation: true, login: 'loopgate-app[bot]', id: 778, graphqlDatabaseId: true })
    expect(await tokenAuthor(client(withId), () => undefined)).toEqual({ name: 'loopgate-app[bot]', email: '778+loopgate-app[bot]@users.noreply.github.com' })
    expect(ops(withId)).not.toContain('users/get-by-username')
  })
})

describe('who may start a loop', () => {
  const settings = (over: { allowUsers?: string[]; allowBots?: boolean } = {}) => ({ allowUsers: [], allowBots: false, ...over })
  const collaborators = { 'octo-admin': 'admin', 'octo-writer': 'write', 'octo-maintain': 'maintain', 'octo-reader': 'read', 'octo-triage': 'triage' }

  test('the actors are the event sender, GITHUB_ACTOR and the user who re-ran it, each once', () => {
    expect(runActors({ GITHUB_ACTOR: 'Alice', GITHUB_TRIGGERING_ACTOR: 'bob' }, { sender: { login: 'alice' } })).toEqual(['alice', 'bob'])
    expect(runActors({}, {})).toEqual([])
  })

  test('write, maintain and admin may; read, triage and strangers are refused with a line that says why', async () => {
    const gh = await server({ collaborators })
    for (const ok of ['octo-admin', 'octo-writer', 'octo-maintain'])
      expect(await actorRefusal({ client: client(gh), repo: REPO, actors: [ok], settings: settings() })).toBeNull()
    for (const [who, level] of [
      ['octo-reader', 'read'],
      ['octo-triage', 'triage'],
      ['stranger', 'none']
    ]) {
      const line = await actorRefusal({ client: client(gh), repo: REPO, actors: [who], settings: settings() })
      expect(line).toContain(`${who} caused this run without write permission on octo-org/octo-repo (${level})`)
      expect(line).toContain('allow-users')
    }
    // every actor must be allowed: a maintainer re-running a stranger's run does not make it the maintainer's
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['octo-admin', 'stranger'], settings: settings() })).toContain('stranger')
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: [], settings: settings() })).toContain('names no actor')
  })

  test('allow-users lets listed logins (any case) and `*` everyone in; allow-bots lets bots in', async () => {
    const gh = await server({ collaborators })
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['Stranger'], settings: settings({ allowUsers: ['stranger'] }) })).toBeNull()
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['anyone'], settings: settings({ allowUsers: ['*'] }) })).toBeNull()
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['dependabot[bot]'], settings: settings() })).toContain('allow-bots: true')
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['dependabot[bot]'], settings: settings({ allowBots: true }) })).toBeNull()
    expect(
      await actorRefusal({ client: client(gh), repo: REPO, actors: ['dependabot[bot]'], settings: settings({ allowUsers: ['dependabot[bot]'] }) })
    ).toBeNull()
  })

  test('a permission that cannot be checked refuses the run', async () => {
    const gh = await server({ collaborators })
    gh.fail('repos/get-collaborator-permission-level', 403, 10, 'Resource not accessible by integration')
    expect(await actorRefusal({ client: client(gh), repo: REPO, actors: ['octo-admin'], settings: settings() })).toContain('could not be checked')
  })
})

describe('through a whole run', () => {
  const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`

  function harness(gh: GitHubServer, env: NodeJS.ProcessEnv, eventName = 'workflow_dispatch') {
    const remote = tempDir('loopgate-remote-')
    const bare = path.join(remote, 'octo-org', 'octo-repo.git')
    const ws = makeRepo(buggyProject())
    sh(remote, ['init', '-q', '--bare', '-b', 'main', bare])
    sh(ws, ['push', '-q', bare, 'HEAD:main'])
    const plan: EventPlan = { kind: 'branch', eventName, workBranch: 'loopgate/auth', baseBranch: 'main' }
    const publisher = new GitHubPublisher({
      plan,
      client: client(gh),
      repo: REPO,
      remote: remoteFromEnv({ GITHUB_SERVER_URL: remote, GITHUB_REPOSITORY: 'octo-org/octo-repo' }, TOKEN),
      env,
      tempDir: tempDir('loopgate-publish-'),
      warn: () => undefined
    })
    return { ws, bare, publisher }
  }

  async function run(ws: string, publisher: GitHubPublisher | DryRunPublisher, inputs: Record<string, string> = {}) {
    const marker = path.join(tempDir('loopgate-marker-'), 'agent-ran')
    const all: Record<string, string> = {
      agent: 'command',
      'agent-command': `touch ${marker}; ${FIX}`,
      prompt: 'Fix add().',
      'gate-command': 'node test/run.mjs',
      'loop-id': 'auth',
      'max-iterations': '2',
      labels: '',
      ...inputs
    }
    const report = await executeRun(
      readSettings((n) => all[n] ?? '', { GITHUB_WORKSPACE: ws }),
      {
        env: process.env,
        runId: `id-${Date.now()}`,
        tempDir: tempDir('loopgate-runner-'),
        publisher,
        signal: new AbortController().signal,
        report: () => undefined,
        isolation: 'weak'
      }
    )
    return { report, agentRan: existsSync(marker) }
  }

  const authorOf = (repo: string, ref: string) => sh(repo, ['log', '-1', '--format=%an <%ae>|%cn <%ce>', ref]).trim()

  test('an actor without write permission: skipped before the agent runs, nothing spent, the reason in the notes', async () => {
    const gh = await server({ installation: true, collaborators: { 'octo-reader': 'read' } })
    const { ws, publisher } = harness(gh, { GITHUB_ACTOR: 'octo-reader' }, 'workflow_run')
    const r = await run(ws, publisher)
    expect(r.report.stopReason).toBe('nothing-to-do')
    expect(r.report.outcome).toBe('skipped')
    expect(r.agentRan).toBe(false)
    expect(r.report.run).toBeNull()
    expect(r.report.notes.join('\n')).toContain('octo-reader caused this run without write permission')
    expect(ops(gh)).not.toContain('pulls/create')
    // The summary says it was skipped and why, never that the gate passes.
    const summary = preLoopSummary(r.report.stopReason, 'auth', r.report.notes)
    expect(summary.split('\n\n').slice(0, 2)).toEqual([
      '## loopgate: skipped',
      expect.stringMatching(/^\*\*Skipped:\*\* octo-reader caused this run without write permission/)
    ])
    expect(summary).not.toMatch(/gate passes/)
  })

  test.each(['schedule', 'workflow_dispatch', 'push'])(
    'a %s run needs no actor check: only a writer can cause one, whoever GitHub names as its actor',
    async (eventName) => {
      // A schedule's actor is the last account to edit the cron, here a bot without write permission.
      const gh = await server({ installation: true, collaborators: {} })
      const { ws, publisher } = harness(gh, { GITHUB_ACTOR: 'renovate[bot]' }, eventName)
      const r = await run(ws, publisher)
      expect(r.report.stopReason).toBe('verified')
      expect(r.agentRan).toBe(true)
      expect(ops(gh)).not.toContain('repos/get-collaborator-permission-level')
    }
  )

  test('with GITHUB_TOKEN the pushed commits are github-actions[bot]’s; commit-author overrides', async () => {
    const gh = await server({ installation: true, collaborators: { 'octo-writer': 'write' } })
    const { ws, bare, publisher } = harness(gh, { GITHUB_ACTOR: 'octo-writer' })
    const r = await run(ws, publisher)
    expect(r.report.stopReason).toBe('verified')
    expect(r.report.published.error).toBeUndefined()
    const expected = `${GITHUB_ACTIONS_AUTHOR.name} <${GITHUB_ACTIONS_AUTHOR.email}>`
    expect(authorOf(bare, 'refs/heads/loopgate/auth')).toBe(`${expected}|${expected}`)
    // GitHub starts no workflows for it: the body says so, once
    expect(gh.pulls).toHaveLength(1)
    expect(gh.pulls[0].body.split(NO_CI_LINE)).toHaveLength(2)

    const gh2 = await server({ installation: true, collaborators: { 'octo-writer': 'write' } })
    const second = harness(gh2, { GITHUB_ACTOR: 'octo-writer' })
    const r2 = await run(second.ws, second.publisher, { 'commit-author': 'Release Bot <release@example.com>' })
    expect(r2.report.stopReason).toBe('verified')
    expect(authorOf(second.bare, 'refs/heads/loopgate/auth')).toBe('Release Bot <release@example.com>|Release Bot <release@example.com>')
  })

  test('with a user’s or an App’s token the commits are its own, and CI runs (no such line)', async () => {
    const gh = await server({ login: 'octo-dev', id: 4242, collaborators: { 'octo-writer': 'write' } })
    const { ws, bare, publisher } = harness(gh, { GITHUB_ACTOR: 'octo-writer' })
    const r = await run(ws, publisher)
    expect(r.report.stopReason).toBe('verified')
    expect(authorOf(bare, 'refs/heads/loopgate/auth')).toBe(
      'octo-dev <4242+octo-dev@users.noreply.github.com>|octo-dev <4242+octo-dev@users.noreply.github.com>'
    )
    expect(gh.pulls[0].body).not.toContain(NO_CI_LINE)
  })

  test('without a token’s identity (the local CLI, dry runs) the commits are loopgate’s local identity', async () => {
    const ws = makeRepo(buggyProject())
    const r = await run(ws, new DryRunPublisher())
    expect(r.report.stopReason).toBe('verified')
    expect(authorOf(ws, r.report.run!.headCommit)).toBe(`${LOCAL_AUTHOR.name} <${LOCAL_AUTHOR.email}>|${LOCAL_AUTHOR.name} <${LOCAL_AUTHOR.email}>`)
    expect(LOCAL_AUTHOR.email).not.toMatch(/users\.noreply\.github\.com/)
  })
})
