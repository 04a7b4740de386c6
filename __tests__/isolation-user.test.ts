/** The dedicated agent user (tests run as root): who the agent is and what it can reach. */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureAgentUser, gateUserName, killUserProcesses, processesOf, runAgentUserName } from '../src/isolation/agent-user.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { attackProject, runAttack, tokenLeaks } from './helpers/gate-fixture.js'
import { needs } from './helpers/needs-tools.js'

const USER = `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-iso`

needs('second-user').describe('the dedicated agent user', () => {
  test('is created when missing, unprivileged', async () => {
    const r = await ensureAgentUser(USER)
    if (!('user' in r)) throw new Error(r.why)
    expect(r.user.uid).toBeGreaterThan(0)
    expect(execFileSync('id', ['-un', String(r.user.uid)], { encoding: 'utf8' }).trim()).toBe(USER)
    expect(await ensureAgentUser(USER)).toEqual(r)
  })

  test('the agent and the gate run as that user; loopgate’s run dir and snapshot are out of its reach', async () => {
    const script = [
      "sed -i 's/a - b/a + b/' src/math.mjs",
      'id -un > who.txt',
      'echo "{\\"cost_usd\\": 0.25}" > "$LOOPGATE_COST_FILE"',
      `ls ${os.tmpdir()}/loopgate-runner-temp-*/loopgate/ > reach.txt 2>&1; echo "exit $?" >> reach.txt`,
      'cat /proc/1/environ > /dev/null 2>> reach.txt',
      ''
    ].join('\n')
    const r = await runAttack({
      isolation: 'auto',
      agentUser: USER,
      script,
      inputs: { 'gate-command': 'echo "gate user: $(id -un)"; node test/run.mjs' }
    })
    expect(r.report.stopReason).toBe('verified')
    expect(readFileSync(path.join(r.ws, 'who.txt'), 'utf8').trim()).toBe(USER)
    expect(readFileSync(path.join(r.ws, 'reach.txt'), 'utf8')).toMatch(/Permission denied[\s\S]*exit 2/)
    expect(r.report.run?.iterations[0].agent.costSource).toBe('reported')
    expect(r.report.run?.iterations[0].gate?.outputTail).toContain(`gate user: ${USER}`)
    expect(statSync(r.report.runDir).mode & 0o777).toBe(0o700)
    expect(statSync(path.join(r.report.runDir, 'credentials.json')).mode & 0o777).toBe(0o600)
    expect(r.report.notes.some((n) => n.startsWith('isolation is weak'))).toBe(false)
    expect(tokenLeaks(r)).toEqual([])
  })

  test('a user with uid 0 is never the agent user', async () => {
    expect(await ensureAgentUser('root')).toEqual({ why: 'the user root has uid 0' })
  })

  needs('setsid').test('killUserProcesses ends every process of the user, even a fork loop', async () => {
    const found = await ensureAgentUser(USER)
    if (!('user' in found)) throw new Error(found.why)
    const { user } = found
    execFileSync('/bin/bash', ['-c', "(setsid bash -c 'while true; do sleep 30 & sleep 0.05; done' > /dev/null 2>&1 &)"], { uid: user.uid, gid: user.gid })
    expect(processesOf(user.uid).length).toBeGreaterThan(0)
    killUserProcesses(user)
    expect(processesOf(user.uid)).toEqual([])
  })
})

needs('second-user').test('after the run the workspace belongs to its owner again (later steps run git there)', async () => {
  const r = await runAttack({ isolation: 'auto', agentUser: USER, script: "sed -i 's/a - b/a + b/' src/math.mjs\n" })
  expect(r.report.stopReason).toBe('verified')
  const owner = statSync(r.ws).uid
  expect(statSync(path.join(r.ws, 'src/math.mjs')).uid).toBe(owner)
  expect(statSync(path.join(r.ws, '.git/index')).uid).toBe(owner)
  expect(
    execFileSync('git', ['log', '--format=%s', '-1'], { cwd: r.ws, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }).trim()
  ).toBe('loopgate: iteration 1')
})

needs('second-user').test('a setup that fails while the run’s users are being made leaves neither user behind', async () => {
  // The users are made while the base is resolved; an unknown base-ref fails that step.
  const runId = `users${process.pid}${Date.now().toString(36)}`
  const outcome = await runAttack({ isolation: 'auto', agentUser: null, runId, script: 'true\n', inputs: { 'base-ref': 'no-such-branch' } }).then(
    (r) => r.report.stopReason,
    (err: Error) => err.message
  )
  expect(outcome).toMatch(/config-error|base-ref/)
  const agentName = runAgentUserName('attack', runId)
  for (const name of [agentName, gateUserName(agentName)]) {
    const r = spawnSync('getent', ['passwd', name])
    expect(r.status).not.toBe(0)
    expect(existsSync(`/home/${name}`)).toBe(false)
  }
})

needs('second-user').test('a run whose agent cannot be made ready after the hand-over leaves neither user behind and the workspace its owner’s', async () => {
  // A pinned Claude Code version that npm cannot install: the adapter fails once the users exist
  // and the workspace is on its way to the agent's user.
  const bin = mkdtempSync(path.join(os.tmpdir(), 'loopgate-fake-npm-'))
  writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho "npm ERR! code E404" >&2\nexit 1\n', { mode: 0o755 })
  const runId = `wire${process.pid}${Date.now().toString(36)}`
  let ws = ''
  const outcome = await runAttack({
    isolation: 'auto',
    agentUser: null,
    runId,
    script: 'true\n',
    prepare: (dir) => {
      ws = dir
    },
    inputs: { agent: 'claude', 'agent-version': '0.0.0-missing', 'anthropic-api-key': 'sk-test' },
    env: { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, XDG_CACHE_HOME: bin }
  }).then(
    (r) => r.report.stopReason,
    (err: Error) => err.message
  )
  expect(outcome).toMatch(/npm|0\.0\.0-missing/)
  const agentName = runAgentUserName('attack', runId)
  for (const name of [agentName, gateUserName(agentName)]) {
    expect(spawnSync('getent', ['passwd', name]).status).not.toBe(0)
    expect(existsSync(`/home/${name}`)).toBe(false)
  }
  for (const file of ['.', 'src/math.mjs', 'test/run.mjs']) expect(statSync(path.join(ws, file)).uid).toBe(process.getuid?.())
})

needs('second-user', 'setsid').test('what a call leaves running under the agent’s user is killed when its command exits, and reported', async () => {
  // Each detached process says when it is in a session of its own; the command exits only then.
  // The shell writes the mark itself (no child of its own to be counted) and then becomes the sleep.
  const ready = mkdtempSync(path.join(os.tmpdir(), 'loopgate-detached-'))
  chmodSync(ready, 0o777)
  const detach = (n: number, envPrefix: string): string => `(${envPrefix}setsid /bin/sh -c ': > ${ready}/${n}; exec /bin/sleep 60' > /dev/null 2>&1 &)\n`
  const r = await runAttack({
    isolation: 'auto',
    script: `sed -i 's/a - b/a + b/' src/math.mjs\n${detach(1, 'env -i ')}${detach(2, '')}while [ ! -e ${ready}/1 ] || [ ! -e ${ready}/2 ]; do sleep 0.05; done\n`
  })
  expect(r.report.stopReason).toBe('verified')
  expect(r.log).toMatch(/2 leftover agent process\(es\) killed/)
  expect(processesOf(Number(execFileSync('id', ['-u', workerAgentUser()], { encoding: 'utf8' })))).toEqual([])
})

test.each(['auto', 'weak'] as const)(
  'when a run returns (isolation %s), its gate checkout and private repository are gone, and the run folder keeps the log',
  async (isolation) => {
    const r = await runAttack({ isolation, script: "sed -i 's/a - b/a + b/' src/math.mjs\n" })
    expect(r.report.stopReason).toBe('verified')
    // What is left is being deleted in the background, under a name of its own.
    const left = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((name) => !name.includes('.removed-')) : [])
    for (const root of r.gateRoots) expect(left(root).filter((name) => name.includes(r.runId))).toEqual([])
    const runs = readdirSync(path.join(r.temp, 'loopgate'))
    expect(runs.length).toBeGreaterThan(0)
    for (const run of runs) {
      expect(left(path.join(r.temp, 'loopgate', run))).toContain('attempts.jsonl')
      expect(left(path.join(r.temp, 'loopgate', run))).not.toContain('gate')
    }
  }
)

needs('second-user').test('when a run returns, its own users are gone and the workspace is its owner’s again', async () => {
  // A slow userdel: the run's users are removed while its end goes on, and the run waits for them.
  const bin = mkdtempSync(path.join(os.tmpdir(), 'loopgate-slow-userdel-'))
  writeFileSync(
    path.join(bin, 'userdel'),
    `#!/bin/sh\nsleep 0.5\nexec ${execFileSync('sh', ['-c', 'command -v userdel'], { encoding: 'utf8' }).trim()} "$@"\n`,
    { mode: 0o755 }
  )
  const runId = `done${process.pid}${Date.now().toString(36)}`
  const path0 = process.env.PATH
  process.env.PATH = `${bin}:${path0}`
  let r
  try {
    r = await runAttack({ isolation: 'auto', agentUser: null, runId, script: `sed -i 's/a - b/a + b/' src/math.mjs\ntouch made-by-agent.txt\n` })
  } finally {
    process.env.PATH = path0
  }
  expect(r.report.stopReason).toBe('verified')
  const agentName = runAgentUserName('attack', runId)
  for (const name of [agentName, gateUserName(agentName)]) {
    expect(spawnSync('getent', ['passwd', name]).status).not.toBe(0)
    expect(existsSync(`/home/${name}`)).toBe(false)
  }
  for (const file of ['.', 'src/math.mjs', 'made-by-agent.txt']) expect(statSync(path.join(r.ws, file)).uid).toBe(process.getuid?.())
})

needs('second-user').test(
  'the gate’s own user writes the runner folders of its checkout, and a source folder only in its run’s own layer, from the first gate run on',
  async () => {
    const r = await runAttack({
      isolation: 'auto',
      files: { ...attackProject(), 'src/deep/nested/keep.txt': 'kept\n' },
      script: `sed -i 's/a - b/a + b/' src/math.mjs\n`,
      inputs: {
        'gate-command':
          'echo out > build/out.txt && mkdir build/new && echo x > build/new/y.txt && echo r > reports/report.txt && id -un > build/who.txt && cat build/who.txt && { { echo x > src/deep/nested/out.txt; } 2>/dev/null && echo SRC-WRITTEN || echo SRC-REFUSED; } && node test/run.mjs'
      }
    })
    expect(r.report.stopReason).toBe('verified')
    expect(r.log).toMatch(/"type":"baseline"[^\n]*"tests":2/)
    expect(r.report.run?.iterations[0].gate?.outputTail).toMatch(/-g\n/)
    // Each gate run writes into a layer of its own over the checkout, thrown away after it.
    expect(r.report.run?.iterations[0].gate?.outputTail).toContain('SRC-WRITTEN')
    expect(existsSync(path.join(r.ws, 'src/deep/nested/out.txt'))).toBe(false)
    expect(r.log).toMatch(/"wrote":"the gate run wrote [^"]*src\//)
  }
)

needs('second-user').test('a process of a named agent user already running cannot reach the dependencies the gate copies', async () => {
  // A job the agent's user left behind (a crontab of an earlier run, say) writes node_modules the
  // moment it can: the gate's copy is taken before the workspace becomes that user's.
  const name = workerAgentUser()
  const made = await ensureAgentUser(name)
  if (!('user' in made)) throw new Error(made.why)
  let writer: ReturnType<typeof spawn> | undefined
  try {
    const r = await runAttack({
      isolation: 'auto',
      agentUser: name,
      script: `sed -i 's/a - b/a + b/' src/math.mjs\n`,
      // The gate reads the dependencies it was given (the copy is deleted when the run ends).
      inputs: {
        'gate-command': 'if grep -q planted node_modules/minicheck/index.mjs; then echo "planted code reached the gate"; exit 3; fi; node test/run.mjs'
      },
      prepare: (ws) => {
        const target = path.join(ws, 'node_modules', 'minicheck', 'index.mjs')
        writer = spawn('/bin/sh', ['-c', `while :; do echo '// planted' >> ${target} 2>/dev/null; done`], {
          uid: made.user.uid,
          gid: made.user.gid,
          detached: true,
          stdio: 'ignore'
        })
      }
    })
    expect(r.log).not.toContain('planted code reached the gate')
    expect(r.report.stopReason).toBe('verified')
  } finally {
    if (writer?.pid) killUserProcesses(made.user)
  }
})
