import { existsSync } from 'node:fs'
import path from 'node:path'
import MarkdownIt from 'markdown-it'
import { bareRemote, checkoutOf, tipOf } from './helpers/bare-remote.js'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN } from './helpers/agent-engine.js'
import { agentUser, assertUserCanRun } from './helpers/agent-user.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'

/**
 * The agent's honest exit through the bundled action as the runner starts it: the real `claude`
 * CLI, run as the agent's own user behind the metering proxy, writes the give-up file the prompt
 * names; the escalation issue on the local GitHub server asks the maintainer the agent's question.
 */

const TOKEN = 'ghs_agentGaveUpE2eToken000000000000000001'
const MODEL_KEY = 'sk-ant-gave-up-e2e-key-held-by-loopgate'
const REASON = 'The protected test asserts the old API; it must change first.'

/** The body's paragraphs and headings in reading order, as plain text. */
const readingOrder = (body: string): string[] =>
  new MarkdownIt({ html: true })
    .parse(body, {})
    .filter((t) => t.type === 'inline')
    .map((t) => t.content)

describe("the agent's honest exit, through the bundled action", () => {
  let gh: GitHubServer
  let anthropic: AnthropicServer

  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    assertUserCanRun(agentUser(), CLAUDE_BIN)
    anthropic = await startAnthropicServer()
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterAll(async () => {
    await anthropic?.close()
    await gh?.close()
  })

  it("ends agent-gave-up after one call: the issue asks the agent's question first, then how to resume", async () => {
    anthropic.setScript([
      { kind: 'tool', name: 'Bash', input: { command: `echo "${REASON}" > "$LOOPGATE_GIVE_UP_FILE"` } },
      { kind: 'text', text: 'I asked for a person.' }
    ])
    const { server, bare } = bareRemote()
    const r = await runAction({
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
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'max-iterations': '4',
        'max-turns': '5',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '2',
        'loop-id': 'gave-up'
      },
      timeoutMs: 300_000
    })

    expect(r.outputs['stop-reason']).toBe('agent-gave-up')
    expect(r.outputs.outcome).toBe('escalated')
    expect(r.outputs.iterations).toBe('1')
    // The prompt named the file in the call's own output folder.
    const prompt = JSON.stringify(anthropic.requests.find((q) => q.url.startsWith('/v1/messages'))?.body ?? '')
    expect(prompt).toMatch(/Write your reason to \S*\/call-1\/out\/give-up\.md instead/)

    expect(gh.issues).toHaveLength(1)
    const issue = gh.issues[0]
    expect(issue.title).toMatch(/^loopgate: Make add\(\) return the sum .* — agent-gave-up$/)
    const order = readingOrder(issue.body)
    expect(order[0]).toBe('loopgate needs a person: `agent-gave-up`')
    expect(order[1]).toMatch(/^\*\*Decision:\*\*/)
    expect(order[1]).toContain(REASON)
    expect(order[2]).toContain('/loopgate retry')
    // Nothing was published as work: no pull request, no commit on the default branch.
    expect(gh.pulls).toHaveLength(0)
    expect(tipOf(bare, 'loopgate/gave-up')).toBeNull()
    expect(gh.violations).toEqual([])
    for (const text of [r.stdout, r.stderr, issue.body, r.summary]) {
      expect(text).not.toContain(TOKEN)
      expect(text).not.toContain(MODEL_KEY)
    }
  }, 360_000)
})
