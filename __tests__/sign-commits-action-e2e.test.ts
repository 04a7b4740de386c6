/**
 * sign-commits through the bundled action: with an installation token (GITHUB_TOKEN's identity),
 * loopgate's commits reach GitHub through the Git database endpoints of the local GitHub server,
 * which stores them in the same bare repository git pushes to and signs them as GitHub does. Each
 * branch is compared with what the git push path leaves.
 */
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { bareRemote, checkoutOf, tipOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction, runPost, type ActionRun } from './helpers/action-runner.js'
import { useCacheService } from './cache-server/scenario.js'
import { GitHttpServer } from './servers/git-http.js'
import { sh, tempDir } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_signCommitsToken0000000000000000001'
const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`
/** The fix, an executable script and a symbolic link. */
const FIX_WITH_MODES = `${FIX} && printf '#!/bin/sh\\necho hi\\n' > tool.sh && chmod +x tool.sh && ln -s src/math.mjs math-link.mjs`
const LOOP_BRANCH = 'loopgate/nightly-upgrade'
const WIP_BRANCH = 'loopgate/nightly-upgrade-wip'
const LONG = 120_000

interface Remote {
  gh: GitHubServer
  server: string
  bare: string
}

const remotes: Remote[] = []

async function remote(): Promise<Remote> {
  const { server, bare } = bareRemote()
  const gh = await startGitHubServer({ token: TOKEN, installation: true, gitDir: bare })
  remotes.push({ gh, server, bare })
  return { gh, server, bare }
}

afterEach(async () => {
  for (const { gh } of remotes.splice(0)) {
    await gh.close()
    expect(gh.violations).toEqual([])
  }
})

beforeAll(() => {
  if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
})

const envOf = (at: Remote): Record<string, string> => ({ GITHUB_API_URL: at.gh.url, GITHUB_SERVER_URL: `file://${at.server}`, GITHUB_REF: 'refs/heads/main' })
const inputsOf = (inputs: Record<string, string>): Record<string, string> => ({
  agent: 'command',
  prompt: 'Make add() add.',
  'gate-command': 'node test/run.mjs',
  'github-token': TOKEN,
  'call-budget-usd': '0.01',
  'spend-ceiling-usd': '1',
  ...inputs
})

interface RunOptions {
  workspace?: string
  eventName?: string
  event?: unknown
  env?: Record<string, string>
}

function run(at: Remote, inputs: Record<string, string>, opts: RunOptions = {}): Promise<ActionRun> {
  return runAction({
    workspace: opts.workspace ?? checkoutOf(at.bare),
    eventName: opts.eventName ?? 'schedule',
    event: opts.event ?? { schedule: '0 3 * * *' },
    env: { ...envOf(at), ...opts.env },
    inputs: inputsOf(inputs)
  })
}

const git = (at: Remote, args: string[]): string => sh(at.bare, args).trim()
const treeOf = (at: Remote, rev: string): string => git(at, ['rev-parse', `${rev}^{tree}`])
/** The commit's raw headers (tree, parents, author, committer, gpgsig). */
const headersOf = (at: Remote, sha: string): string => sh(at.bare, ['cat-file', 'commit', sha]).split('\n\n')[0]
const isSigned = (at: Remote, sha: string): boolean => headersOf(at, sha).includes('\ngpgsig ')
/** The commits on `tip` that are not on `since`. */
const newCommits = (at: Remote, tip: string, since = 'main'): string[] =>
  git(at, ['rev-list', tip, `^${since}`])
    .split('\n')
    .filter(Boolean)
const gitDatabaseWrites = (gh: GitHubServer): string[] =>
  gh.requests.filter((q) => q.method !== 'GET' && q.operationId?.startsWith('git/')).map((q) => q.operationId as string)

/** Every commit of `tip` after `since` was created through the API and signed as GitHub signs an installation's. */
function expectVerified(at: Remote, tip: string, since = 'main'): void {
  const commits = newCommits(at, tip, since)
  expect(commits.length).toBeGreaterThan(0)
  for (const sha of commits) {
    expect(isSigned(at, sha)).toBe(true)
    expect(at.gh.createdCommits.map((c) => c.sha)).toContain(sha)
    expect(headersOf(at, sha)).toContain('author github-actions[bot] <41898282+github-actions[bot]@users.noreply.github.com>')
    expect(headersOf(at, sha)).toContain('committer GitHub <noreply@github.com>')
  }
}

const noToken = (r: ActionRun): void => expect(`${r.stdout}${r.stderr}${r.summary}`).not.toContain(TOKEN)

describe('sign-commits through the bundled action', () => {
  it(
    'the loop branch: signed commits through the API whose tree is the one git pushes, an executable bit and a symlink kept; sign-commits: false pushes with git as before',
    async () => {
      const signed = await remote()
      const viaApi = await run(signed, { 'agent-command': FIX_WITH_MODES })
      if (viaApi.outputs['stop-reason'] !== 'verified') console.log(viaApi.stdout, viaApi.stderr)
      expect(viaApi.outputs['stop-reason']).toBe('verified')
      expect(viaApi.exitCode).toBe(0)
      const tip = tipOf(signed.bare, LOOP_BRANCH)!
      expectVerified(signed, tip)
      expect(gitDatabaseWrites(signed.gh)).toEqual(expect.arrayContaining(['git/create-blob', 'git/create-tree', 'git/create-commit', 'git/create-ref']))
      expect(viaApi.summary).toContain('GitHub signs them as github-actions[bot]')
      expect(signed.gh.pulls).toHaveLength(1)
      noToken(viaApi)

      const plain = await remote()
      const viaGit = await run(plain, { 'agent-command': FIX_WITH_MODES, 'sign-commits': 'false' })
      expect(viaGit.outputs['stop-reason']).toBe('verified')
      expect(viaGit.exitCode).toBe(0)
      const pushed = tipOf(plain.bare, LOOP_BRANCH)!
      expect(gitDatabaseWrites(plain.gh)).toEqual([])
      expect(newCommits(plain, pushed).some((sha) => isSigned(plain, sha))).toBe(false)

      // The same tree, to the byte: the fix, the script's mode, the link's target.
      expect(treeOf(signed, tip)).toBe(treeOf(plain, pushed))
      const entries = git(signed, ['ls-tree', tip])
      expect(entries).toMatch(/^100755 blob \w+\ttool\.sh$/m)
      expect(entries).toMatch(/^120000 blob \w+\tmath-link\.mjs$/m)
      expect(git(signed, ['cat-file', 'blob', `${tip}:math-link.mjs`])).toBe('src/math.mjs')
      expect(git(signed, ['show', `${tip}:src/math.mjs`])).toContain('a + b')
    },
    LONG
  )

  it(
    "a second run's work replaces loopgate's earlier work on the loop branch by moving it forward, never forcing it",
    async () => {
      const at = await remote()
      const first = await run(at, { 'agent-command': FIX, 'max-open-prs': '2' })
      expect(first.outputs['stop-reason']).toBe('verified')
      const earlier = tipOf(at.bare, LOOP_BRANCH)!
      const second = await run(at, { 'agent-command': `${FIX} && echo again > again.txt`, prompt: 'Make add() add, again.', 'max-open-prs': '2' })
      expect(second.outputs['stop-reason']).toBe('verified')
      expect(second.exitCode).toBe(0)
      const tip = tipOf(at.bare, LOOP_BRANCH)!
      expect(git(at, ['merge-base', '--is-ancestor', earlier, tip])).toBe('')
      expect(git(at, ['show', `${tip}:again.txt`])).toBe('again')
      // The tip holds exactly the second run's tree: its first parent's, with the earlier tip as the second parent.
      const [work, replaced] = git(at, ['rev-list', '--parents', '-n', '1', tip]).split(' ').slice(1)
      expect(replaced).toBe(earlier)
      expect(treeOf(at, tip)).toBe(treeOf(at, work))
      expectVerified(at, tip)
      expect(at.gh.requests.filter((q) => q.operationId === 'git/update-ref').map((q) => (q.body as { force?: boolean }).force)).toEqual([false])
      expect(at.gh.pulls).toHaveLength(1)
    },
    LONG
  )

  it(
    'unfinished work goes to the WIP branch as signed commits',
    async () => {
      const at = await remote()
      const r = await run(at, { 'agent-command': 'echo half done > WORK.md', 'max-iterations': '1' })
      expect(r.outputs['stop-reason']).toBe('max-iterations')
      expect(r.outputs.outcome).toBe('escalated')
      const wip = tipOf(at.bare, WIP_BRANCH)!
      expect(wip).not.toBeNull()
      expectVerified(at, wip)
      expect(git(at, ['show', `${wip}:WORK.md`])).toBe('half done')
      expect(at.gh.issues).toHaveLength(1)
      expect(at.gh.issues[0].body).toContain(WIP_BRANCH)
    },
    LONG
  )

  const pullRequestEvent = (number: number, headSha: string) => ({
    action: 'synchronize',
    number,
    pull_request: {
      number,
      html_url: `https://github.com/octo-org/octo-repo/pull/${number}`,
      head: { ref: 'feature', sha: headSha, repo: { full_name: 'octo-org/octo-repo' } },
      base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } }
    },
    repository: { full_name: 'octo-org/octo-repo', default_branch: 'main' }
  })

  /** A pull request's branch `feature` with one commit of its author's. */
  function featurePull(at: Remote): { number: number; head: string; comments: string[] } {
    const seed = checkoutOf(at.bare)
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
    sh(seed, ['push', '-q', 'origin', 'feature'])
    const pull = at.gh.addPull({ head: 'feature', labels: [] })
    return { number: pull.number, head: tipOf(at.bare, 'feature')!, comments: pull.comments }
  }

  it(
    "a pull request's branch moves forward by a signed commit on top of its head",
    async () => {
      const at = await remote()
      const pull = featurePull(at)
      const r = await run(
        at,
        { 'agent-command': FIX, 'on-success': 'push' },
        { workspace: checkoutOf(at.bare, 'feature'), eventName: 'pull_request', event: pullRequestEvent(pull.number, pull.head) }
      )
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).toBe(0)
      const pushed = tipOf(at.bare, 'feature')!
      expect(git(at, ['rev-parse', `${pushed}~1`])).toBe(pull.head)
      expect(isSigned(at, pushed)).toBe(true)
      expect(git(at, ['log', '-1', '--format=%B', pushed])).toContain('Loopgate-Run:')
      expect(pull.comments[0]).toContain('pushed it to `feature`')
    },
    LONG
  )

  it(
    'a branch that moves between reading it and updating it is refused, never forced: the work goes to the WIP branch',
    async () => {
      const at = await remote()
      const pull = featurePull(at)
      let someoneElses = ''
      at.gh.before('git/update-ref', () => {
        const other = checkoutOf(at.bare, 'feature')
        sh(other, ['commit', '-q', '--allow-empty', '-m', 'pushed by a person meanwhile'])
        sh(other, ['push', '-q', 'origin', 'feature'])
        someoneElses = tipOf(at.bare, 'feature')!
      })
      const r = await run(
        at,
        { 'agent-command': FIX, 'on-success': 'push', 'on-escalate': 'comment' },
        { workspace: checkoutOf(at.bare, 'feature'), eventName: 'pull_request', event: pullRequestEvent(pull.number, pull.head) }
      )
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).not.toBe(0)
      expect(r.stdout).toContain('the branch feature moved on the remote since loopgate read it; not overwriting it')
      expect(someoneElses).not.toBe('')
      expect(tipOf(at.bare, 'feature')).toBe(someoneElses)
      const refused = at.gh.requests.find((q) => q.operationId === 'git/update-ref')
      expect(refused).toMatchObject({ status: 422, body: { force: false } })
      const wip = tipOf(at.bare, WIP_BRANCH)!
      expect(git(at, ['show', `${wip}:src/math.mjs`])).toContain('a + b')
      expectVerified(at, wip, pull.head)
    },
    LONG
  )

  it(
    'a token without contents: write fails naming the permission, and opens no pull request',
    async () => {
      const at = await remote()
      at.gh.deny('git/create-blob')
      const r = await run(at, { 'agent-command': FIX })
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).not.toBe(0)
      expect(r.stdout).toContain('contents: write')
      expect(at.gh.pulls).toHaveLength(0)
      expect(tipOf(at.bare, LOOP_BRANCH)).toBeNull()
      noToken(r)
    },
    LONG
  )

  it(
    'a file over the API blob limit is a clear error before anything is pushed',
    async () => {
      const at = await remote()
      const r = await run(at, { 'agent-command': `${FIX} && head -c ${100 * 1024 * 1024 + 1} /dev/zero > big.bin` })
      expect(r.outputs['stop-reason']).toBe('verified')
      expect(r.exitCode).not.toBe(0)
      expect(r.stdout).toContain('big.bin (100.0 MB): larger than the 100.0 MB the GitHub API takes for one file')
      expect(r.stdout).toContain('sign-commits: false')
      expect(gitDatabaseWrites(at.gh)).toEqual([])
      expect(tipOf(at.bare, LOOP_BRANCH)).toBeNull()
      expect(tipOf(at.bare, WIP_BRANCH)).toBeNull()
      expect(at.gh.pulls).toHaveLength(0)
    },
    LONG
  )
})

describe('sign-commits across runs and steps', () => {
  const svc = useCacheService()
  const onClose: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const close of onClose.splice(0)) await close()
  })

  it(
    "the next run resumes from the WIP branch's signed head, and moves it forward",
    async () => {
      const at = await remote()
      // The cache service is GitHub's (v2) only for a github.com or *.localhost server: the remote over smart HTTP at git.localhost.
      const http = new GitHttpServer(at.server, TOKEN)
      const env = { ...svc.env(), GITHUB_SERVER_URL: (await http.listen()).replace('127.0.0.1', 'git.localhost') }
      onClose.push(() => http.close())
      const inputs = { 'loop-id': 'signed-resume', 'max-iterations': '1' }
      const first = await run(at, { ...inputs, 'agent-command': 'echo half done >> WORK.md' }, { env })
      expect(first.outputs.outcome).toBe('escalated')
      const wip = tipOf(at.bare, 'loopgate/signed-resume-wip')!
      expectVerified(at, wip)

      const second = await run(at, { ...inputs, 'agent-command': 'echo more >> WORK.md' }, { env })
      expect(second.outputs.outcome).toBe('escalated')
      expect(second.summary).toContain(`this run starts from its work on loopgate/signed-resume-wip (${wip.slice(0, 12)})`)
      expect(second.summary).not.toContain('moved since the last run')
      const next = tipOf(at.bare, 'loopgate/signed-resume-wip')!
      expect(git(at, ['rev-list', '--parents', '-n', '1', next]).split(' ').slice(1)).toEqual([wip])
      expect(git(at, ['show', `${next}:WORK.md`])).toBe('half done\nmore')
      expectVerified(at, next, wip)
    },
    LONG
  )

  it(
    'after a kill mid-call, the post step creates the unfinished work on the WIP branch as signed commits',
    async () => {
      const at = await remote()
      const ws = checkoutOf(at.bare)
      const pidFile = path.join(tempDir('loopgate-pid-'), 'agent.pid')
      const inputs = inputsOf({ prompt: 'x', 'agent-command': `echo $$ > ${pidFile}; echo half done > WORK.md; exec sleep 60` })
      const main = await runAction({
        workspace: ws,
        eventName: 'schedule',
        event: {},
        env: envOf(at),
        inputs,
        onSpawn: (child) => {
          const timer = setInterval(() => {
            if (existsSync(path.join(ws, 'WORK.md'))) {
              clearInterval(timer)
              child.kill('SIGKILL')
            }
          }, 100)
        }
      })
      expect(main.signal).toBe('SIGKILL')
      try {
        process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL')
      } catch {
        // already gone
      }
      const post = await runPost(main, { workspace: ws, eventName: 'schedule', event: {}, env: envOf(at), inputs })
      expect(post.exitCode).toBe(0)
      const wip = tipOf(at.bare, WIP_BRANCH)!
      expect(git(at, ['show', `${wip}:WORK.md`])).toBe('half done')
      expectVerified(at, wip)
      noToken(post)
    },
    LONG
  )
})
