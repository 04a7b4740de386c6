import { existsSync } from 'node:fs'
import { bareRemote, checkoutOf, tipOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { sh } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_progressGateE2eToken0000000000001'
const FIX = "sed -i 's/a - b/a + b/' src/math.mjs"

/** A node:test project whose tests take a while each: the gate run lasts several beats. */
function slowProject(): Record<string, string> {
  const slow = Array.from(
    { length: 8 },
    (_, i) => `test('slow ${i + 1}', async () => { await new Promise((r) => setTimeout(r, 700)); assert.equal(add(${i}, 1), ${i + 1}) })`
  )
  return {
    'package.json': JSON.stringify({ name: 'slow', version: '1.0.0', type: 'module', private: true }, null, 2) + '\n',
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/math.test.mjs': [
      "import { test } from 'node:test'",
      "import assert from 'node:assert/strict'",
      "import { add } from '../src/math.mjs'",
      ...slow,
      ''
    ].join('\n')
  }
}

/**
 * While the gate runs, the beat says how long it has run and how many tests its runner reported so
 * far; on a pull request the progress comment shows the same, edited no more often than the rate
 * limits allow. Through the bundled action and the local GitHub server.
 */
describe('progress while the gate runs, through the bundled action', () => {
  let gh: GitHubServer

  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  it("prints the gate's tests so far and puts the beat on the progress comment, throttled", async () => {
    const { server, bare } = bareRemote(slowProject())
    const seed = checkoutOf(bare)
    sh(seed, ['checkout', '-q', '-b', 'feature'])
    sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
    sh(seed, ['push', '-q', 'origin', 'feature'])
    const head = tipOf(bare, 'feature')!
    const pull = gh.addPull({ head: 'feature', labels: [] })
    const started = Date.now()
    const r = await runAction({
      workspace: checkoutOf(bare, 'feature'),
      eventName: 'pull_request',
      event: {
        action: 'synchronize',
        number: pull.number,
        pull_request: {
          number: pull.number,
          html_url: `https://github.com/octo-org/octo-repo/pull/${pull.number}`,
          head: { ref: 'feature', sha: head, repo: { full_name: 'octo-org/octo-repo' } },
          base: { ref: 'main', sha: '0'.repeat(40), repo: { full_name: 'octo-org/octo-repo' } }
        },
        repository: { full_name: 'octo-org/octo-repo', default_branch: 'main' }
      },
      env: { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/feature', LOOPGATE_PROGRESS_SECONDS: '1' },
      inputs: {
        agent: 'command',
        'agent-command': FIX,
        prompt: 'Make add() add.',
        'gate-command': 'node --test',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        'on-success': 'push',
        'on-escalate': 'comment'
      },
      timeoutMs: 240_000
    })
    const seconds = (Date.now() - started) / 1000
    expect(r.outputs['stop-reason']).toBe('verified')
    const beats = r.stdout.split('\n').filter((l) => l.startsWith('… still running, '))
    const gateBeats = beats.filter((l) => /; the gate's run so far: \d+s, \d+ test\(s\)$/.test(l))
    expect(gateBeats.length).toBeGreaterThan(2)
    const counts = gateBeats.map((l) => Number(/, (\d+) test\(s\)$/.exec(l)![1]))
    expect(counts.some((n) => n > 0 && n < 8)).toBe(true)

    const edits = gh.requests.filter((q) => q.operationId === 'issues/update-comment' || q.operationId === 'issues/create-comment')
    const live = edits.filter((q) => String((q.body as { body?: string }).body).includes('_Now: still running, '))
    expect(live.length).toBeGreaterThanOrEqual(1)
    expect(String((live[0].body as { body: string }).body)).toMatch(/_Now: still running, \d+s in(; [^_]*)?_/)
    // One progress-only edit a minute at most, however often the beat is printed.
    expect(beats.length).toBeGreaterThan(live.length * 3)
    expect(live.length).toBeLessThanOrEqual(1 + Math.floor(seconds / 60))
    for (let i = 1; i < live.length; i++) expect(live[i].at! - live[i - 1].at!).toBeGreaterThanOrEqual(59_000)
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN)
  }, 300_000)
})
