/**
 * A private repository checked out the recommended way (depth 1, persist-credentials: false):
 * every fetch loopgate needs goes through the token, as its pushes do.
 */
import { GitRepository } from '../src/git/repository.js'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fetchEnv } from '../src/git/fetch-auth.js'
import { planEvent } from '../src/github/events.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { prepareResume } from '../src/state/resume.js'
import { emptyState, type LoopState } from '../src/state/schema.js'
import { attackProject, filesUnder, runAttack, runGateDirs } from './helpers/gate-fixture.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitHttpServer } from './servers/git-http.js'

const TOKEN = `ghs_privateFetch${process.pid}x${Date.now().toString(36)}`
const AUTH = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`
const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

let server: GitHttpServer
let url: string
let bare: string
let seed: string
let mainSha: string

beforeAll(async () => {
  const root = tempDir('loopgate-git-host-')
  bare = path.join(root, 'owner', 'private.git')
  mkdirSync(bare, { recursive: true })
  sh(bare, ['init', '-q', '--bare', '-b', 'main'])
  sh(bare, ['config', 'uploadpack.allowReachableSHA1InWant', 'true'])
  seed = makeRepo(attackProject())
  mainSha = sh(seed, ['rev-parse', 'HEAD']).trim()
  sh(seed, ['push', '-q', bare, 'main'])
  sh(seed, ['checkout', '-q', '-b', 'feature'])
  writeFileSync(path.join(seed, 'NOTES.md'), 'a feature branch\n')
  sh(seed, ['add', '-A'])
  sh(seed, ['commit', '-q', '-m', 'feature'])
  sh(seed, ['push', '-q', bare, 'feature'])
  sh(seed, ['checkout', '-q', 'main'])
  server = new GitHttpServer(root, TOKEN)
  url = `${await server.listen()}`
})

afterAll(async () => {
  await server.close()
})

const remoteUrl = (): string => `${url}/owner/private.git`
const githubEnv = (): Record<string, string> => ({ GITHUB_SERVER_URL: url, GITHUB_REPOSITORY: 'owner/private' })

/** actions/checkout with `persist-credentials: false`: depth 1, one branch, no credential left behind. */
function checkout(branch: string, into = tempDir('loopgate-checkout-'), persist = false): string {
  const dir = path.join(into, 'clone')
  sh(into, ['-c', `http.extraheader=${AUTH}`, 'clone', '-q', '--depth=1', '--single-branch', '--branch', branch, remoteUrl(), dir])
  if (persist) sh(dir, ['config', `http.${url}/.extraheader`, AUTH])
  return dir
}

/** Turns runAttack's fresh repository into such a checkout of `branch` (same files as main). */
function becomeCheckout(ws: string, branch: string, persist = false): void {
  const clone = checkout(branch, tempDir('loopgate-checkout-'), persist)
  rmSync(path.join(ws, '.git'), { recursive: true, force: true })
  renameSync(path.join(clone, '.git'), path.join(ws, '.git'))
  sh(ws, ['checkout', '-q', '-f', branch])
  expect(sh(ws, ['rev-parse', '--is-shallow-repository']).trim()).toBe('true')
}

test('the run resolves base-ref main, only on the server, through the github-token', async () => {
  const before = server.uploadPacks(true).length
  const r = await runAttack({
    isolation: 'weak',
    inputs: { 'base-ref': 'main', 'github-token': TOKEN },
    env: githubEnv(),
    prepare: (ws) => becomeCheckout(ws, 'feature'),
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.notes.join('\n')).toContain(`protected gate: base ${mainSha.slice(0, 7)} (base-ref main)`)
  expect(server.uploadPacks(true).length).toBeGreaterThan(before)
  // Never in a file the agent can read, nor in the repository's configuration afterwards.
  const leaks = [r.ws, path.join(r.temp, 'loopgate-calls'), ...runGateDirs(r)].flatMap(filesUnder).filter((f) => {
    const text = readFileSync(f, 'latin1')
    return text.includes(TOKEN) || text.includes(AUTH.split(' ').pop() as string)
  })
  expect(leaks).toEqual([])
  expect(r.log).not.toContain(TOKEN)
})

test('without a github-token, the credential actions/checkout persisted authenticates the fetch', async () => {
  const r = await runAttack({
    isolation: 'weak',
    inputs: { 'base-ref': 'main', 'github-token': '' },
    env: githubEnv(),
    prepare: (ws) => becomeCheckout(ws, 'feature', true),
    script: FIX
  })
  expect(r.report.notes.join('\n')).toContain(`protected gate: base ${mainSha.slice(0, 7)} (base-ref main)`)
  expect(readFileSync(path.join(r.ws, '.git', 'config'), 'utf8')).not.toContain('extraheader')
})

test('the WIP branch is fetched through the token into a depth-1 clone', async () => {
  sh(seed, ['checkout', '-q', '-b', 'wip-work', 'main'])
  writeFileSync(path.join(seed, 'src', 'math.mjs'), 'export function add(a, b) {\n  return a + b // step 1\n}\n')
  sh(seed, ['commit', '-qam', 'wip'])
  const head = sh(seed, ['rev-parse', 'HEAD']).trim()
  sh(seed, ['push', '-q', bare, 'wip-work:refs/heads/loopgate/loop-wip'])
  sh(seed, ['checkout', '-q', 'main'])
  const state: LoopState = {
    ...emptyState('loop'),
    runs: [
      {
        runId: '1-1',
        startedAt: new Date().toISOString(),
        endedAt: new Date().toISOString(),
        outcome: 'escalated',
        stopReason: 'same-failure',
        spentUsd: 1,
        iterations: 1,
        pr: null
      }
    ],
    lastFailure: { fingerprint: 'fp1', evidence: ['failing: math adds two numbers'] },
    wip: { branch: 'loopgate/loop-wip', head, base: mainSha }
  }
  const ws = checkout('main')
  const plan = await prepareResume({ repository: GitRepository.plain(ws), loopId: 'loop', state, creds: { token: TOKEN, env: githubEnv() } })
  expect(plan.notes.join('\n')).not.toContain('could not fetch')
  expect(plan.resumed).toBe(true)
  expect(sh(ws, ['rev-parse', 'HEAD']).trim()).toBe(head)
})

test("the pull request's head is fetched through the token to recognise loopgate's own commit", async () => {
  sh(seed, ['checkout', '-q', '-b', 'pr-head', 'main'])
  writeFileSync(path.join(seed, 'NOTES.md'), 'loopgate was here\n')
  sh(seed, ['add', '-A'])
  sh(seed, ['commit', '-q', '-m', 'loopgate: iteration 1\n\nLoopgate-Run: 9-1\nLoopgate-Iteration: 1\n'])
  const headSha = sh(seed, ['rev-parse', 'HEAD']).trim()
  sh(seed, ['push', '-q', bare, 'pr-head'])
  sh(seed, ['checkout', '-q', 'main'])
  const ws = checkout('main')
  const inputs: Record<string, string> = { agent: 'command', 'agent-command': 'true', prompt: 'x', 'gate-command': 'true', 'github-token': TOKEN }
  const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: ws })
  const payload = {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      html_url: 'https://example.invalid/pull/7',
      head: { ref: 'pr-head', sha: headSha, repo: { full_name: 'owner/private' } },
      base: { ref: 'main', sha: mainSha, repo: { full_name: 'owner/private' } }
    }
  }
  const plan = await planEvent({ settings, eventName: 'pull_request', payload, env: githubEnv() })
  expect(plan).toMatchObject({ kind: 'skip', message: expect.stringContaining("loopgate's own") })
})

test('the token header is for the server named by GITHUB_SERVER_URL only; the persisted credential is the fallback', () => {
  const env = fetchEnv({
    token: 't0k',
    env: { GITHUB_SERVER_URL: 'https://ghe.example.com/' },
    persisted: ['http.https://github.com/.extraheader=AUTHORIZATION: basic OLD']
  })
  expect(env).toMatchObject({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.https://ghe.example.com/.extraheader' })
  expect(env.GIT_CONFIG_VALUE_0).toBe(`AUTHORIZATION: basic ${Buffer.from('x-access-token:t0k').toString('base64')}`)
  const persisted = fetchEnv({ env: {}, persisted: ['http.https://github.com/.extraheader=AUTHORIZATION: basic OLD'] })
  expect(persisted).toMatchObject({
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: 'http.https://github.com/.extraheader',
    GIT_CONFIG_VALUE_0: 'AUTHORIZATION: basic OLD'
  })
  expect(fetchEnv({ token: 't0k', env: { GITHUB_SERVER_URL: 'not a url' } }).GIT_CONFIG_COUNT).toBeUndefined()
})
