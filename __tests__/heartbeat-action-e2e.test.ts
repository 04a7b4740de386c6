import { existsSync } from 'node:fs'
import path from 'node:path'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { CLI_BIN_DIR, CLAUDE_BIN } from './helpers/agent-engine.js'
import { agentUser, assertUserCanRun } from './helpers/agent-user.js'
import { buggyProject, makeRepo } from './helpers/repo.js'
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './servers/anthropic-server.js'

const MODEL_KEY = 'sk-ant-heartbeat-e2e-key-held-by-loopgate'
const bash = (command: string): AnthropicStep => ({ kind: 'tool', name: 'Bash', input: { command } })

/**
 * While a call runs, the log says so at a steady beat, with what the metering proxy counted so far:
 * the real `claude` CLI behind the proxy, a scripted model, one slow tool call.
 */
describe('progress while an agent call runs, through the bundled action', () => {
  let anthropic: AnthropicServer

  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    assertUserCanRun(agentUser(), CLAUDE_BIN)
    anthropic = await startAnthropicServer()
  })
  afterAll(async () => {
    await anthropic?.close()
  })

  it('prints elapsed time, model requests, tokens and dollars from the meter', async () => {
    anthropic.setScript([bash("sleep 4; sed -i 's/a - b/a + b/' src/math.mjs"), { kind: 'text', text: 'Fixed add().' }])
    const r = await runAction({
      workspace: makeRepo(buggyProject()),
      env: {
        PATH: `${CLI_BIN_DIR}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
        ANTHROPIC_BASE_URL: anthropic.url,
        CLAUDE_CODE_MAX_RETRIES: '1',
        LOOPGATE_PROGRESS_SECONDS: '1'
      },
      inputs: {
        agent: 'claude',
        'anthropic-api-key': MODEL_KEY,
        prompt: 'Make add() add.',
        'gate-command': 'node test/run.mjs',
        'max-turns': '5',
        'call-budget-usd': '0.5',
        'spend-ceiling-usd': '3',
        'dry-run': 'true'
      },
      timeoutMs: 240_000
    })
    expect(r.outputs['stop-reason']).toBe('verified')
    const beats = r.stdout.split('\n').filter((l) => l.startsWith('… still running, '))
    expect(beats.length).toBeGreaterThan(1)
    expect(beats.some((l) => /the agent's call so far: [1-9]\d* model request\(s\), [1-9][\d,]* tokens, \$\d+\.\d\d$/.test(l))).toBe(true)
    expect(r.stdout).not.toContain(MODEL_KEY)
  }, 300_000)
})
