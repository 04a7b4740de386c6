import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { Ledger } from '../src/records/ledger.js'
import { needs } from './helpers/needs-tools.js'
import { killMarked, markedAlive } from './helpers/hanging-agent.js'
import { buggyProject, makeRepo, sh } from './helpers/repo.js'
import { runIn } from './helpers/settings.js'

const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`
const GATE = 'node test/run.mjs'

function progressLines(repo: string): string[] {
  return readFileSync(path.join(repo, '.loopgate/progress.md'), 'utf8').trim().split('\n')
}

function ledgerSpent(file: string): number {
  return Ledger.summarise(readFileSync(file, 'utf8')).chargedUsd
}

describe('each stop reason, made to fire on a real git repository', () => {
  it('verified: the scripted agent fails once, then fixes the bug', async () => {
    const repo = makeRepo(buggyProject())
    const agent = `if [ "$LOOPGATE_ITERATION" = 1 ]; then echo '// wip' >> src/math.mjs; else ${FIX}; fi; echo '{"cost_usd": 0.25}' > "$LOOPGATE_COST_FILE"`
    const r = await runIn(repo, { 'agent-command': agent, 'gate-command': GATE })
    expect(r.stopReason).toBe('verified')
    expect(r.run?.iterations).toHaveLength(2)
    expect(r.run?.spentUsd).toBeCloseTo(0.5)
    expect(ledgerSpent(r.ledgerFile)).toBeCloseTo(0.5)
    // loopgate committed each iteration with its trailer; the progress file is not committed
    const log = sh(repo, ['log', '--format=%B%x00', 'main'])
    expect(log).toContain('Loopgate-Iteration: 2')
    expect(sh(repo, ['ls-files'])).not.toContain('.loopgate')
    expect(progressLines(repo).pop()).toBe('stop-reason: verified')
    expect(readFileSync(r.published.files[0], 'utf8')).toContain('loopgate: verified')
    expect(r.run?.iterations[1].agent.costSource).toBe('reported')
  })

  it('max-iterations', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, { 'agent-command': 'date +%N >> notes.txt', 'gate-command': GATE, 'max-iterations': '2', 'same-failure-limit': '5' })
    expect(r.stopReason).toBe('max-iterations')
    expect(r.run?.iterations).toHaveLength(2)
    expect(readFileSync(r.published.files[0], 'utf8')).toContain('max-iterations')
  })

  it('spend-ceiling with reported costs', async () => {
    const repo = makeRepo(buggyProject())
    const agent = `date +%N >> notes.txt; echo '{"cost_usd": 1.5}' > "$LOOPGATE_COST_FILE"`
    const r = await runIn(repo, { 'agent-command': agent, 'gate-command': GATE, 'call-budget-usd': '2', 'spend-ceiling-usd': '5', 'same-failure-limit': '9' })
    expect(r.stopReason).toBe('spend-ceiling')
    // 0+2≤5, 1.5+2≤5, 3+2≤5, 4.5+2>5
    expect(r.run?.iterations).toHaveLength(3)
    expect(ledgerSpent(r.ledgerFile)).toBeCloseTo(4.5)
  })

  it('spend-ceiling with costs missing: each call is charged its full budget', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, {
      'agent-command': 'date +%N >> notes.txt',
      'gate-command': GATE,
      'call-budget-usd': '2',
      'spend-ceiling-usd': '5',
      'same-failure-limit': '9'
    })
    expect(r.stopReason).toBe('spend-ceiling')
    expect(r.run?.iterations).toHaveLength(2)
    expect(ledgerSpent(r.ledgerFile)).toBe(4)
  })

  it('time-limit: the call is cut at the time left and no further call starts', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, { 'agent-command': 'sleep 5', 'gate-command': GATE, 'time-limit-minutes': '0.02' })
    expect(r.stopReason).toBe('time-limit')
    expect(r.run?.iterations).toHaveLength(1)
    expect(r.run?.iterations[0].agent.timedOut).toBe(true)
  })

  it('no-progress: iterations that change nothing', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, { 'agent-command': 'echo "thinking" >> .loopgate/progress.md', 'gate-command': GATE, 'no-progress-limit': '3' })
    expect(r.stopReason).toBe('no-progress')
    expect(r.run?.iterations).toHaveLength(3)
  })

  it('same-failure: new changes, the same failing test', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, { 'agent-command': 'date +%N >> notes.txt', 'gate-command': GATE })
    expect(r.stopReason).toBe('same-failure')
    expect(r.run?.iterations).toHaveLength(2)
    expect(r.run?.lastVerdict?.failures[0].id).toBe('math adds two numbers')
  })

  it('agent-failure: three failed calls in a row', async () => {
    const repo = makeRepo(buggyProject())
    const r = await runIn(repo, { 'agent-command': 'date +%N >> notes.txt; exit 3', 'gate-command': GATE, 'same-failure-limit': '9' })
    expect(r.stopReason).toBe('agent-failure')
    expect(r.run?.iterations).toHaveLength(3)
    expect(r.run?.iterations[0].agent.reason).toBe('exit code 3')
  })

  it('nothing-to-do: no change needed and the gate passes', async () => {
    const files = buggyProject()
    files['src/math.mjs'] = 'export function add(a, b) {\n  return a + b\n}\n'
    const repo = makeRepo(files)
    const r = await runIn(repo, { 'agent-command': 'echo nothing to upgrade', 'gate-command': GATE })
    expect(r.stopReason).toBe('nothing-to-do')
    expect(r.outcome).toBe('skipped')
    expect(r.published.files).toEqual([])
  })
})

describe('the command agent and the per-call timeout', () => {
  needs('setsid').it('kills the whole process group, grandchildren and setsid escapees included', async () => {
    const repo = makeRepo(buggyProject())
    // Found by name: a pid the agent sees in its call's PID namespace means nothing outside it.
    const marker = `loopgate-escapee-${path.basename(repo)}`
    const agent = [`(exec -a ${marker}-a sleep 300 &)`, `(setsid bash -c 'exec -a ${marker}-b sleep 301' &)`, 'sleep 302'].join('; ')
    try {
      const r = await runIn(repo, { 'agent-command': agent, 'gate-command': GATE, 'call-timeout-minutes': '0.02', 'max-iterations': '1' })
      expect(r.run?.iterations[0].agent.timedOut).toBe(true)
      expect(r.run?.iterations[0].agent.status).toBe('failed')
      for (const suffix of ['a', 'b']) expect(markedAlive(`${marker}-${suffix}`)).toBe(false)
    } finally {
      for (const suffix of ['a', 'b']) killMarked(`${marker}-${suffix}`)
    }
  })

  it('gives the agent the prompt on stdin and in a file, and none of the runner secrets', async () => {
    const repo = makeRepo(buggyProject())
    const env = {
      ...process.env,
      GITHUB_TOKEN: 'ghs_planted000000000000000000000000000',
      'INPUT_GITHUB-TOKEN': 'ghs_planted000000000000000000000000000',
      ACTIONS_RUNTIME_TOKEN: 'actions-runtime-planted',
      ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:1/planted'
    }
    const agent = 'env > env.txt; cat > stdin.txt; cp "$LOOPGATE_PROMPT_FILE" prompt.txt'
    await runIn(repo, { 'agent-command': agent, 'gate-command': GATE, 'max-iterations': '1', prompt: 'Make add() add.' }, env)
    const seen = readFileSync(path.join(repo, 'env.txt'), 'utf8')
    expect(seen).not.toMatch(/GITHUB_TOKEN|INPUT_|ACTIONS_|planted/)
    expect(seen).toContain('LOOPGATE_PROMPT_FILE=')
    expect(readFileSync(path.join(repo, 'stdin.txt'), 'utf8')).toContain('Make add() add.')
    expect(readFileSync(path.join(repo, 'prompt.txt'), 'utf8')).toContain('Make add() add.')
  })
})

describe('the features file', () => {
  const features = JSON.stringify(
    [
      { id: 'adds', test: 'math adds two numbers', passes: false },
      { id: 'subtracts', test: 'math subtracts', passes: false }
    ],
    null,
    2
  )

  /** The gate writes a TAP report: a flip is verified only by its test id listed as passed there. */
  const tapGate = {
    'test/tap.mjs': [
      "import { add } from '../src/math.mjs'",
      'const ok = add(2, 3) === 5',
      "console.log(`TAP version 13\\n1..1\\n${ok ? 'ok' : 'not ok'} 1 - math adds two numbers`)",
      'if (!ok) process.exit(1)',
      ''
    ].join('\n')
  }

  it('keeps a verified flip and restores any other edit', async () => {
    const repo = makeRepo({ ...buggyProject(), ...tapGate, 'features.json': features })
    const agent = [
      'if [ "$LOOPGATE_ITERATION" = 1 ]; then',
      `  node -e 'const f=require("./features.json"); f[0].test="renamed"; require("fs").writeFileSync("features.json", JSON.stringify(f))'; echo x >> notes.txt`,
      'else',
      `  ${FIX}; node -e 'const f=require("./features.json"); f[0].passes=true; require("fs").writeFileSync("features.json", JSON.stringify(f))'`,
      'fi'
    ].join('\n')
    const r = await runIn(repo, {
      'agent-command': agent,
      'gate-command': 'node test/tap.mjs > report.tap',
      'gate-report': 'report.tap',
      'features-file': 'features.json'
    })
    expect(r.stopReason).toBe('verified')
    expect(r.run?.iterations[0].rejected.join(' ')).toContain('may only flip "passes"')
    const final = JSON.parse(readFileSync(path.join(repo, 'features.json'), 'utf8')) as { test: string; passes: boolean }[]
    expect(final[0]).toMatchObject({ test: 'math adds two numbers', passes: true })
  })

  it('reverts a flip the gate does not verify, and invalid JSON', async () => {
    const repo = makeRepo({ ...buggyProject(), 'features.json': features })
    const agent = [
      'if [ "$LOOPGATE_ITERATION" = 1 ]; then echo "{not json" > features.json; echo a >> notes.txt;',
      `else node -e 'const f=require("./features.json"); f[0].passes=true; require("fs").writeFileSync("features.json", JSON.stringify(f))'; echo b >> notes.txt; fi`
    ].join('\n')
    writeFileSync(path.join(repo, 'x'), '')
    const r = await runIn(repo, {
      'agent-command': agent,
      'gate-command': GATE,
      'features-file': 'features.json',
      'max-iterations': '2',
      'same-failure-limit': '9'
    })
    expect(r.stopReason).toBe('max-iterations')
    expect(r.run?.iterations[0].rejected.join(' ')).toContain('invalid JSON')
    expect(r.run?.iterations[1].rejected.join(' ')).toContain('not verified by the gate')
    const final = JSON.parse(readFileSync(path.join(repo, 'features.json'), 'utf8')) as { passes: boolean }[]
    expect(final[0].passes).toBe(false)
  })
})
