import { mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { startDemoModelServer, type DemoModelServer } from '../scripts/demo-model-server.mjs'
import { agentUser, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, lastResultLine, runEngine } from './helpers/agent-engine.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { makeRepo } from './helpers/repo.js'

// The demo's scripted model drives the real claude CLI through the demo task: half a fix, the
// gate's evidence, the whole fix, verified.

let model: DemoModelServer
let user: AgentUser
beforeAll(async () => {
  model = await startDemoModelServer()
  if (!hasTool('second-user')) return
  user = agentUser()
})
afterAll(async () => {
  await model.close()
})

/** The real CLIs run as a user of their own (Claude Code refuses to skip permissions as root). */
const asUser = needs('second-user')

const SLUGIFY_REPO = {
  'src/slugify.mjs':
    '/** Turns a title into a URL slug: "Hello, World!" → "hello-world". */\nexport function slugify(title) {\n  return title.toLowerCase()\n}\n',
  'test/slugify.test.mjs': [
    "import { test } from 'node:test'",
    "import assert from 'node:assert/strict'",
    "import { slugify } from '../src/slugify.mjs'",
    "test('lower-cases words', () => { assert.equal(slugify('Hello'), 'hello') })",
    "test('joins words with dashes', () => { assert.equal(slugify('Hello World'), 'hello-world') })",
    "test('drops punctuation', () => { assert.equal(slugify('Hello, World!'), 'hello-world') })",
    ''
  ].join('\n'),
  'TASK.md': 'Fix `slugify` in src/slugify.mjs so that the tests in test/ pass. Do not change the tests.\n'
}

asUser.test('two iterations of the real claude CLI: half a fix, then the fix; verified, every call costed', async () => {
  const repo = makeRepo(SLUGIFY_REPO)
  chownTree(repo, user)
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  const r = await runEngine({
    adapter: new ClaudeAgent({ binary: CLAUDE_BIN }),
    repo,
    env: { PATH: process.env.PATH, TMPDIR: tmp, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'demo-no-real-key' },
    user,
    task: SLUGIFY_REPO['TASK.md'],
    maxIterations: 4,
    callBudgetUsd: 0.5,
    agentFailureLimit: 3,
    gateCommand: 'node --test test/'
  })
  expect(r.outcome.stopReason).toBe('verified')
  expect(r.outcome.iterations).toHaveLength(2)
  expect(r.outcome.iterations[0].gate?.passed).toBe(false)
  expect(r.outcome.iterations.map((i) => i.agent.status)).toEqual(['claimed-done', 'claimed-done'])
  expect(readFileSync(path.join(repo, 'src/slugify.mjs'), 'utf8')).toContain('[^a-z0-9]+')
  for (const [i, it] of r.outcome.iterations.entries()) {
    expect(r.charges[i].usd).toBe(lastResultLine(it.agent.outputTail)?.total_cost_usd)
    expect(r.charges[i].source).toBe('reported')
    expect(it.agent.turns).toBe(3)
  }
})
