/**
 * The post step publishes what no iteration would: the agent rewrites a protected test and adds a
 * workflow, the main step's whole process group is killed while the agent sleeps in its call, and
 * the post step commits the last edits and pushes the WIP branch. The bundled action, a bare git
 * remote, the local GitHub server.
 */
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DIST_INDEX, runAction, runPost } from './helpers/action-runner.js'
import { waitForFile } from './cache-server/scenario.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { buggyProject, sh, sharedTempDir } from './helpers/repo.js'

const TOKEN = 'ghs_killedRunPublishToken000000000000001'
const WIP = 'loopgate/nightly-upgrade-wip'
const BASE_TEST = buggyProject()['test/run.mjs']

/** The agent's call: a real fix, a rewritten protected test, a new workflow; then it sleeps in the call. */
function cheatingAgent(started: string): string {
  return [
    "sed -i 's/a - b/a + b/' src/math.mjs",
    `printf "console.log('✓ math adds two numbers')\\n" > test/run.mjs`,
    'mkdir -p .github/workflows',
    `printf 'on: push\\njobs:\\n  x:\\n    runs-on: ubuntu-latest\\n    steps:\\n      - run: echo "$SECRET"\\n' > .github/workflows/evil.yml`,
    `touch ${started}`,
    'exec sleep 60'
  ].join('; ')
}

describe('a killed main step: the post step publishes only the publishable tree', () => {
  let gh: GitHubServer
  let server: string
  let bare: string

  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    ;({ server, bare } = bareRemote())
  })
  afterEach(async () => {
    await gh.close()
  })

  async function killedThenSettled(extra: Record<string, string>) {
    const ws = checkoutOf(bare)
    const started = path.join(sharedTempDir('loopgate-started-'), 'started')
    const env = { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' }
    const inputs = {
      agent: 'command',
      prompt: 'Make add() add.',
      'gate-command': 'node test/run.mjs',
      'github-token': TOKEN,
      'call-budget-usd': '0.01',
      'spend-ceiling-usd': '1',
      'agent-command': cheatingAgent(started),
      ...extra
    }
    const main = await runAction({
      workspace: ws,
      eventName: 'schedule',
      event: {},
      env,
      inputs,
      detached: true,
      onSpawn: (child) => void waitForFile(started).then(() => process.kill(-(child.pid as number), 'SIGKILL'))
    })
    expect(main.signal).toBe('SIGKILL')
    const post = await runPost(main, { workspace: ws, eventName: 'schedule', event: {}, env, inputs })
    expect(post.exitCode).toBe(0)
    expect(`${post.stdout}${post.stderr}${post.summary}`).not.toContain(TOKEN)
    const wip = sh(bare, ['rev-parse', '--verify', '-q', `refs/heads/${WIP}`]).trim()
    return { ws, post, wip }
  }

  function expectOnlyTheFix(wip: string): void {
    const files = sh(bare, ['ls-tree', '-r', '--name-only', wip]).split('\n').filter(Boolean)
    expect({ test: sh(bare, ['show', `${wip}:test/run.mjs`]), workflows: files.filter((f) => f.startsWith('.github')) }).toEqual({
      test: BASE_TEST,
      workflows: []
    })
    expect(sh(bare, ['show', `${wip}:src/math.mjs`])).toContain('a + b')
    // No commit on the way to the WIP head carries either change.
    expect(sh(bare, ['log', '--format=%H', `main..${wip}`, '--', 'test/run.mjs', '.github']).trim()).toBe('')
  }

  it('with the default protected paths: the WIP branch has the base’s test, no workflow, and the fix', async () => {
    const { ws, post, wip } = await killedThenSettled({})
    expectOnlyTheFix(wip)
    expect(post.stdout).toContain('protected paths put back to the base')
    // The workspace the later steps see holds the base's test too.
    expect(readFileSync(path.join(ws, 'test/run.mjs'), 'utf8')).toBe(BASE_TEST)
  })

  it('with .github/workflows/** removed from the protected paths: still no workflow on the remote', async () => {
    const { post, wip } = await killedThenSettled({ 'protected-paths': '!.github/workflows/**' })
    expectOnlyTheFix(wip)
    expect(post.stdout).toContain('workflow files are never committed')
  })
})
