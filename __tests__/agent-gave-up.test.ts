import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run/execute-run.js'
import { CLI_BIN_DIR } from './helpers/agent-engine.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer } from './servers/anthropic-server.js'

/**
 * The agent's honest exit: a give-up file in its call's output folder stops the loop before more is
 * spent, as `agent-gave-up`, with its reason as the escalation's question; a gate that passes in
 * the same iteration still wins.
 */

const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`

let anthropic: AnthropicServer
beforeAll(async () => {
  anthropic = await startAnthropicServer()
})
afterAll(async () => {
  await anthropic.close()
})

async function execute(inputs: Record<string, string>, env: NodeJS.ProcessEnv = process.env) {
  const repo = makeRepo(buggyProject())
  const all: Record<string, string> = {
    agent: 'command',
    prompt: 'Make add() add.',
    'gate-command': 'node test/run.mjs',
    'max-iterations': '5',
    'call-budget-usd': '0.5',
    'spend-ceiling-usd': '5',
    ...inputs
  }
  const report = await executeRun(
    readSettings((name) => all[name] ?? '', { ...env, GITHUB_WORKSPACE: repo }),
    {
      env,
      runId: `g${Date.now()}`,
      tempDir: tempDir('loopgate-gave-up-'),
      publisher: new DryRunPublisher(),
      signal: new AbortController().signal,
      report: () => undefined,
      isolation: 'weak'
    }
  )
  const issueFile = path.join(report.runDir, 'escalation-issue.md')
  return { report, issue: existsSync(issueFile) ? readFileSync(issueFile, 'utf8') : '' }
}

describe('an honest way for the agent to give up', () => {
  it('stops after the call that asked, charged that call only, the reason quoted as the question', async () => {
    const agent = `printf 'The task needs the API key rotated in the vault; I cannot reach it.\\nA person must rotate it first.\\n' > "$LOOPGATE_GIVE_UP_FILE"`
    const { report, issue } = await execute({ 'agent-command': agent })
    expect(report.stopReason).toBe('agent-gave-up')
    expect(report.outcome).toBe('escalated')
    expect(report.run?.iterations).toHaveLength(1)
    expect(report.run?.spentUsd).toBeCloseTo(0.5)
    const order = issue.split('\n\n')
    expect(order[2]).toBe(
      '**Decision:** the agent asked for a person: ` The task needs the API key rotated in the vault; I cannot reach it. A person must rotate it first. `. Decide whether the task, the base or the tests must change, then retry with your answer.'
    )
    expect(issue).toContain("**The agent's reason**, in its own words:")
    expect(issue).toContain('A person must rotate it first.')
  })

  it('an empty give-up file counts, with no reason given', async () => {
    const { report, issue } = await execute({ 'agent-command': ': > "$LOOPGATE_GIVE_UP_FILE"' })
    expect(report.stopReason).toBe('agent-gave-up')
    expect(issue).toContain('**Decision:** the agent asked for a person: it gave no reason.')
    expect(issue).toContain("**The agent's reason:** none given (its give-up file was empty).")
  })

  it('a gate that passes in the same iteration wins: verified, the give-up noted', async () => {
    const { report } = await execute({ 'agent-command': `${FIX} && echo 'not sure this is right' > "$LOOPGATE_GIVE_UP_FILE"` })
    expect(report.stopReason).toBe('verified')
    const log = readFileSync(report.logFile, 'utf8')
    expect(log).toContain('the agent asked for a person: not sure this is right')
  })

  it('a give-up file planted outside the call, or a link to a file, is no request', async () => {
    const secret = path.join(tempDir('loopgate-secret-'), 'secret.txt')
    const agent = `echo s3cret > ${secret}; ln -s ${secret} "$LOOPGATE_GIVE_UP_FILE"`
    const { report } = await execute({ 'agent-command': agent, 'max-iterations': '1' })
    expect(report.stopReason).toBe('max-iterations')
    expect(readFileSync(report.logFile, 'utf8')).not.toContain('s3cret')
  })

  it('Claude Code is told where the file is, and writing it ends the run as agent-gave-up', async () => {
    anthropic.setScript([
      { kind: 'tool', name: 'Bash', input: { command: 'echo "The protected test asserts the old API; it must change first." > "$LOOPGATE_GIVE_UP_FILE"' } },
      { kind: 'text', text: 'I asked for a person.' }
    ])
    const env = {
      PATH: `${CLI_BIN_DIR}:${process.env.PATH}`,
      HOME: tempDir('loopgate-root-home-'),
      ANTHROPIC_BASE_URL: anthropic.url,
      CLAUDE_CODE_MAX_RETRIES: '1'
    }
    const { report, issue } = await execute({ agent: 'claude', 'anthropic-api-key': 'sk-ant-gave-up-test', 'max-iterations': '3', 'call-budget-usd': '1' }, env)
    expect(report.stopReason).toBe('agent-gave-up')
    expect(report.run?.iterations).toHaveLength(1)
    const prompt = JSON.stringify(anthropic.requests.find((r) => r.url.startsWith('/v1/messages'))?.body ?? '')
    expect(prompt).toMatch(/Write your reason to \S*\/call-1\/out\/give-up\.md instead/)
    expect(issue).toContain('The protected test asserts the old API; it must change first.')
  })
})
