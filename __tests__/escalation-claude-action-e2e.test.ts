import { existsSync } from 'node:fs'
import path from 'node:path'
import MarkdownIt from 'markdown-it'
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction, type ActionRun } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN } from './helpers/agent-engine.js'
import { agentUser, assertUserCanRun } from './helpers/agent-user.js'
import { FIX, journal, nodeProjectFiles, STEADY } from './helpers/flaky-project.js'
import { buggyProject, sh } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'

/**
 * Escalations and the flaky rule with the real `claude` CLI as the agent, through the bundled
 * action as the runner starts it: the CLI runs as the agent's own user behind loopgate's metering
 * proxy, against a scripted model server, and the local GitHub server gets the issue or the PR.
 */

const TOKEN = 'ghs_escalationClaudeE2eToken00000000001'
const MODEL_KEY = 'sk-ant-escalation-e2e-key-held-by-loopgate'

const readingOrder = (body: string): string[] =>
  new MarkdownIt({ html: true })
    .parse(body, {})
    .filter((t) => t.type === 'inline')
    .map((t) => t.content)

const bash = (command: string): AnthropicStep => ({ kind: 'tool', name: 'Bash', input: { command } })

describe('escalations and flaky tests with the real claude CLI, through the bundled action', () => {
  let gh: GitHubServer
  let anthropic: AnthropicServer

  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    assertUserCanRun(agentUser(), CLAUDE_BIN)
    anthropic = await startAnthropicServer()
  })
  afterAll(async () => {
    await anthropic?.close()
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const run = (files: Record<string, string>, inputs: Record<string, string>): Promise<{ r: ActionRun; bare: string }> => {
    const { server, bare } = bareRemote(files)
    return runAction({
      workspace: checkoutOf(bare),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: {
        PATH: `${CLI_BIN_DIR}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
        ANTHROPIC_BASE_URL: anthropic.url,
        CLAUDE_CODE_MAX_RETRIES: '1',
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: `file://${server}`,
        GITHUB_REF: 'refs/heads/main'
      },
      inputs: {
        agent: 'claude',
        'anthropic-api-key': MODEL_KEY,
        prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
        'github-token': TOKEN,
        'max-turns': '5',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '3',
        'loop-id': 'adder',
        ...inputs
      },
      timeoutMs: 300_000
    }).then((r) => ({ r, bare }))
  }

  it('protected tampering: the issue asks for the protected file first, each attempt lists its files and the agent’s words', async () => {
    const cheat = `sed -i 's/a - b/a * b/' src/math.mjs && echo "console.log('✓ math adds two numbers')" > test/run.mjs`
    anthropic.setScript([
      bash(cheat),
      { kind: 'text', text: 'I changed the test because it looked wrong.' },
      bash(cheat),
      { kind: 'text', text: 'Done again.' }
    ])
    const { r, bare } = await run(buggyProject(), { 'gate-command': 'node test/run.mjs', 'max-iterations': '4' })
    expect(r.outputs['stop-reason']).toBe('protected-tampering')
    expect(gh.issues).toHaveLength(1)
    const { title, body } = gh.issues[0]
    expect(title).toMatch(/^loopgate: Make add\(\) return the sum .* — protected-tampering$/)
    const order = readingOrder(body)
    expect(order[0]).toBe('loopgate needs a person: `protected-tampering`')
    expect(order[1]).toMatch(/^\*\*Decision:\*\* the task needs ` test\/run\.mjs ` changed/)
    expect(order[2]).toContain('/loopgate retry')
    const attempts = body.split('#### Attempt ').slice(1)
    expect(attempts).toHaveLength(2)
    expect(attempts[0]).toMatch(/Files: ` src\/math\.mjs ` \+1\/−1\./)
    expect(attempts[0]).toContain('Rejected: ` rejected: protected files changed: test/run.mjs (modified)')
    expect(attempts[0]).toContain('I changed the test because it looked wrong.')
    expect(sh(bare, ['show', 'main:test/run.mjs'])).toContain('expected 5')
    for (const text of [r.stdout, r.stderr, body]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(MODEL_KEY)
    }
  }, 360_000)

  it('a flaky test the fix did not touch passes when the same command runs again; the pull request names it flaky', async () => {
    const j = journal()
    anthropic.setScript([bash(FIX), { kind: 'text', text: 'Fixed add().' }])
    const { r } = await run(nodeProjectFiles(j.file, { 'coin lands heads': "assert.ok(run !== 2, 'tails on run ' + run)" }), {
      'gate-command': 'node --test',
      'max-iterations': '3'
    })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(r.outputs.iterations).toBe('1')
    expect(gh.pulls).toHaveLength(1)
    expect(gh.pulls[0].body).toMatch(
      /### Flaky tests\n\nEach failed, then passed when the gate ran it again on the same commit[^\n]*\n\n- ` coin lands heads `/
    )
    // The baseline, the fix, and the rerun of the whole gate command.
    expect(j.runs('coin lands heads')).toBe(3)
    for (const name of STEADY) expect(j.runs(name)).toBe(3)
  }, 360_000)
})
