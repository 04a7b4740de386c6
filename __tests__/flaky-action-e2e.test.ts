import { execFileSync } from 'node:child_process'
import { chmodSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { ROOT, runAction, type ActionRun } from './helpers/action-runner.js'
import { FIX, journal, nodeProjectFiles, nodeTestFile, STEADY } from './helpers/flaky-project.js'
import { sharedTempDir } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

/**
 * The flaky rule's rerun through the action bundled from this tree (not dist/), against the local
 * GitHub server and a bare remote: the pull request or escalation issue read as a maintainer reads
 * it, and each test's own journal of its runs for what the rerun ran.
 */

const TOKEN = 'ghs_flakyE2eToken000000000000000000001'
const COIN = { 'coin lands heads': "assert.ok(run !== 2, 'tails on run ' + run)" }

describe('flaky and base-broken tests, through the bundled action', () => {
  let entry: string
  let gh: GitHubServer

  beforeAll(() => {
    const out = path.join(sharedTempDir('loopgate-bundle-'), 'action')
    execFileSync(process.execPath, ['scripts/package.mjs', out], { cwd: ROOT, stdio: 'ignore' })
    entry = path.join(out, 'index.js')
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const run = (files: Record<string, string>, inputs: Record<string, string>): Promise<ActionRun> => {
    const { server, bare } = bareRemote(files)
    return runAction({
      entry,
      workspace: checkoutOf(bare),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' },
      inputs: {
        agent: 'command',
        prompt: 'Make add() return the sum of its two arguments.',
        'gate-command': 'node --test',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        'max-iterations': '3',
        'loop-id': 'adder',
        ...inputs
      }
    })
  }

  it('a flaky test among many passes when the same command runs again; the pull request names it flaky', async () => {
    const j = journal()
    const r = await run(nodeProjectFiles(j.file, COIN), { 'agent-command': FIX })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(gh.pulls).toHaveLength(1)
    const body = gh.pulls[0].body
    expect(body).toMatch(/### Flaky tests\n\nEach failed, then passed when the gate ran it again on the same commit[^\n]*\n\n- ` coin lands heads `/)
    expect(body).not.toContain('### Failing on the base')
    expect(j.runs('coin lands heads')).toBe(3)
    // The rerun is the whole gate command: the same selection and order.
    for (const name of STEADY) expect(j.runs(name)).toBe(3)
  })

  it('a failing test in a file the change touched is not rerun: the escalation shows it failing, not flaky', async () => {
    const j = journal()
    // The agent fixes add and rewrites the (unprotected) extra tests: a coin that fails on its second run.
    const coin = path.join(sharedTempDir('loopgate-flaky-edit-'), 'extra.test.mjs')
    writeFileSync(coin, nodeTestFile(j.file, { 'coin lands heads': "assert.ok(run !== 2, 'tails on run ' + run)" }))
    chmodSync(coin, 0o644)
    const r = await run(nodeProjectFiles(j.file, { 'coin lands heads': 'assert.ok(run > 0)' }), {
      'agent-command': `${FIX} && cp ${coin} test/extra.test.mjs`,
      'max-iterations': '1',
      'protected-paths': '!test/extra.test.mjs'
    })
    expect(r.outputs['stop-reason']).toBe('max-iterations')
    expect(j.runs('coin lands heads')).toBe(2)
    expect(gh.issues).toHaveLength(1)
    const body = gh.issues[0].body
    expect(body).toMatch(/\*\*Decision:\*\* 1 attempts did not pass the gate \(still failing: [^)]*coin lands heads/)
    expect(body).not.toContain('### Flaky tests')
    expect(body).not.toContain('### Failing on the base')
  })

  it('a test failing on the base too is named as the base’s, and the run ends flaky-tests', async () => {
    const j = journal()
    const agent = `if [ -f notes.txt ]; then ${FIX}; else echo looking > notes.txt; fi`
    const r = await run(nodeProjectFiles(j.file, { 'certificate still valid': "assert.ok(run < 2, 'expired on run ' + run)" }), { 'agent-command': agent })
    expect(r.outputs['stop-reason']).toBe('flaky-tests')
    expect(gh.issues).toHaveLength(1)
    const { title, body } = gh.issues[0]
    expect(title).toMatch(/— flaky-tests$/)
    expect(body).toMatch(
      /\*\*Decision:\*\* the tests left failing fail on the base too \(` certificate still valid `; they passed at the baseline\): fix them in the base, then retry\./
    )
    expect(body).toMatch(
      /### Failing on the base\n\nEach passed at the baseline, then failed here and again when rerun on the base’s own tree[^\n]*\n\n- ` certificate still valid `/
    )
    const log = readFileSync(r.outputs['log-file'], 'utf8')
    expect(log).toMatch(/"failingOnBase":\["certificate still valid"\]/)
  })

  it('an opaque gate command is rerun whole, like any: the log says so, the pull request names the flaky test', async () => {
    const j = journal()
    const r = await run(nodeProjectFiles(j.file, COIN, { Makefile: '.PHONY: test\ntest:\n\tnode --test\n' }), {
      'agent-command': FIX,
      'gate-command': 'make test'
    })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(gh.pulls[0].body).toMatch(/### Flaky tests[\s\S]*- ` coin lands heads `/)
    for (const name of STEADY) expect(j.runs(name)).toBe(3)
    expect(readFileSync(r.outputs['log-file'], 'utf8')).toContain('the whole gate command again, the same selection and order (`make test`)')
  })
})
