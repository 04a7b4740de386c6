import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, runPost } from './helpers/action-runner.js'
import { needs } from './helpers/needs-tools.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

// GitHub-hosted runners: loopgate runs as an unprivileged user with passwordless sudo. It must
// re-launch itself as root so that the agent runs as a user of its own.
const RUNNER = 'loopgate-runner-t'
const SUDOERS = `/etc/sudoers.d/${RUNNER}`

function account(name: string): { uid: number; gid: number; home: string } {
  if (spawnSync('getent', ['passwd', name]).status !== 0) {
    execFileSync('useradd', ['--create-home', '--shell', '/bin/bash', '--user-group', name])
  }
  const [, , uid, gid, , home] = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).trim().split(':')
  return { uid: Number(uid), gid: Number(gid), home }
}

needs('second-user', 'sudo').describe('on a runner with passwordless sudo (the hosted-runner case)', () => {
  let runner: { uid: number; gid: number; home: string }
  beforeAll(() => {
    runner = account(RUNNER)
    writeFileSync(SUDOERS, `${RUNNER} ALL=(ALL) NOPASSWD: ALL\n`, { mode: 0o440 })
  })
  afterAll(() => rmSync(SUDOERS, { force: true }))

  it('re-launches itself as root; the agent runs as the agent user; files go back to the runner', async () => {
    const repo = makeRepo(buggyProject())
    execFileSync('chown', ['-R', `${runner.uid}:${runner.gid}`, repo])
    const runnerTemp = tempDir('loopgate-runner-sudo-')
    const options = {
      workspace: repo,
      runnerTemp,
      as: runner,
      inputs: {
        agent: 'command',
        'agent-command': `id -un > "$HOME/../who-$LOOPGATE_ITERATION" 2>/dev/null; id -un > who.txt; sed -i 's/a - b/a + b/' src/math.mjs`,
        prompt: 'Make add() add.',
        'gate-command': 'node test/run.mjs',
        'dry-run': 'true',
        'github-token': 'ghs_sudoFakeToken0000000000000000000001'
      }
    }
    const main = await runAction(options)
    expect(main.outputs['stop-reason']).toBe('verified')
    expect(main.summary).not.toContain('isolation is weak')
    // The agent was neither the runner's user nor root.
    const who = readFileSync(path.join(repo, 'who.txt'), 'utf8').trim()
    expect(who).not.toBe(RUNNER)
    expect(who).not.toBe('root')
    expect(who).toMatch(/^loopgate-agent/)
    // The workspace and loopgate's temp folders are the runner's again.
    expect(statSync(path.join(repo, 'src', 'math.mjs')).uid).toBe(runner.uid)
    expect(statSync(path.join(repo, '.git')).uid).toBe(runner.uid)
    expect(existsSync(path.join(runnerTemp, 'loopgate'))).toBe(true)
    expect(statSync(path.join(runnerTemp, 'loopgate')).uid).toBe(runner.uid)
    const post = await runPost(main, options)
    expect(post.exitCode).toBe(0)
    expect(`${main.stdout}${post.stdout}`).not.toContain('ghs_sudoFakeToken')
  })

  const weakRun = (repo: string, inputs: Record<string, string> = {}) => {
    execFileSync('chown', ['-R', `${runner.uid}:${runner.gid}`, repo])
    return runAction({
      workspace: repo,
      as: runner,
      env: { LOOPGATE_ISOLATION: 'weak' },
      inputs: {
        agent: 'command',
        'agent-command': `id -un > who.txt; sed -i 's/a - b/a + b/' src/math.mjs`,
        prompt: 'x',
        'gate-command': 'node test/run.mjs',
        'dry-run': 'true',
        ...inputs
      }
    })
  }

  it("without root it cannot limit the agent's network: it refuses before any call, unless allowed-hosts is '*'", async () => {
    const repo = makeRepo(buggyProject())
    const run = await weakRun(repo)
    expect(run.outputs['stop-reason']).toBe('config-error')
    expect(run.outputs.iterations ?? '0').toBe('0')
    expect(existsSync(path.join(repo, 'who.txt'))).toBe(false)
    expect(`${run.stdout}${run.summary}`).toContain(`not root, so it cannot make network and PID namespaces`)
  })

  it("stays weak, and says so, when LOOPGATE_ISOLATION=weak and allowed-hosts is '*'", async () => {
    const repo = makeRepo(buggyProject())
    const run = await weakRun(repo, { 'allowed-hosts': '*' })
    expect(run.outputs['stop-reason']).toBe('verified')
    expect(readFileSync(path.join(repo, 'who.txt'), 'utf8').trim()).toBe(RUNNER)
    expect(run.summary).toContain('isolation is weak')
    expect(run.summary).toContain("the agent and the gate have the runner's whole network and see every process on it (allowed-hosts: '*')")
  })
})
