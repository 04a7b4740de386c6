import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runAction, workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sharedTempDir, tempDir } from './helpers/repo.js'
import { baseInputs, waitForFile } from './cache-server/scenario.js'

/** Waits (at most `tenths` tenths of a second) until `file` exists. */
const waitIn = (file: string, tenths = 900): string => `i=0; while [ ! -e ${file} ] && [ $i -lt ${tenths} ]; do sleep 0.1; i=$((i+1)); done`

/** A repository as actions/checkout leaves it: a folder every user may read. */
function checkout(extra: Record<string, string> = {}): string {
  const repo = makeRepo({ ...buggyProject(), ...extra })
  chmodSync(repo, 0o755)
  return repo
}

describe('two runs on one machine are strangers', () => {
  it('a second run with the same LOOPGATE_AGENT_USER refuses before spending, and the first run’s agent lives on', async () => {
    const sync = sharedTempDir('loopgate-sync-')
    const user = `${workerAgentUser()}n`
    const first = runAction({
      workspace: checkout(),
      env: { LOOPGATE_AGENT_USER: user },
      inputs: {
        ...baseInputs('stranger-a', { 'max-iterations': '1' }),
        'agent-command': `touch ${sync}/a-started; ${waitIn(`${sync}/release`)}; touch ${sync}/a-finished`
      }
    })
    await waitForFile(path.join(sync, 'a-started'), 120_000)
    const second = await runAction({
      workspace: checkout(),
      env: { LOOPGATE_AGENT_USER: user },
      inputs: { ...baseInputs('stranger-b', { 'max-iterations': '1' }), 'agent-command': `touch ${sync}/b-ran` }
    })
    // Its pid is its PID namespace's: the first agent is found by its command line instead.
    const firstAgentAlive = spawnSync('pgrep', ['-f', `${sync}/a-finished`]).status === 0
    writeFileSync(path.join(sync, 'release'), '')
    const firstRun = await first
    expect(second.outputs['stop-reason']).toBe('config-error')
    expect(second.outputs['spend-usd']).toBe('0.00')
    expect(second.stdout).toContain(`LOOPGATE_AGENT_USER' has the value "${user}"`)
    expect(existsSync(path.join(sync, 'b-ran'))).toBe(false)
    expect(firstAgentAlive).toBe(true)
    expect(existsSync(path.join(sync, 'a-finished'))).toBe(true)
    expect(firstRun.outputs['stop-reason']).toBe('max-iterations')
  })

  it('an agent of one run cannot read the other run’s workspace, prompt or temp files', async () => {
    const sync = sharedTempDir('loopgate-sync-')
    const otherTemp = tempDir('loopgate-runner-')
    const otherWorkspace = checkout({ 'SECRET.txt': 'B-WORKSPACE-SECRET\n' })
    const other = runAction({
      workspace: otherWorkspace,
      runnerTemp: otherTemp,
      env: { LOOPGATE_AGENT_USER: `${workerAgentUser()}q` },
      inputs: {
        ...baseInputs('stranger-q', { 'max-iterations': '1' }),
        prompt: 'B-PROMPT-SECRET',
        'agent-command': `f="\${TMPDIR:-/tmp}/b-secret-$$"; echo B-TMP-SECRET > "$f"; echo "$f" > ${sync}/b-tmpfile; touch ${sync}/b-ready; ${waitIn(`${sync}/a-done`)}`
      }
    })
    await waitForFile(path.join(sync, 'b-ready'), 120_000)
    const reads = [`$(cat ${sync}/b-tmpfile)`, `${otherWorkspace}/SECRET.txt`, `${otherTemp}/loopgate-calls/*/call-1/*`, 'OWN.txt']
    const mine = await runAction({
      workspace: checkout({ 'OWN.txt': 'A-OWN-FILE\n' }),
      env: { LOOPGATE_AGENT_USER: `${workerAgentUser()}p` },
      inputs: {
        ...baseInputs('stranger-p', { 'max-iterations': '1' }),
        'agent-command': `for f in ${reads.join(' ')}; do cat "$f" >> ${sync}/a-saw 2>/dev/null; done; touch ${sync}/a-done`
      }
    })
    await other
    expect(`${mine.outputs['stop-reason']}\n${mine.stdout.slice(-1500)}`).toMatch(/^max-iterations\n/)
    const saw = readFileSync(path.join(sync, 'a-saw'), 'utf8')
    // The agent could read its own workspace: the reads themselves worked.
    expect(saw).toContain('A-OWN-FILE')
    expect(saw).not.toContain('B-WORKSPACE-SECRET')
    expect(saw).not.toContain('B-PROMPT-SECRET')
    expect(saw).not.toContain('B-TMP-SECRET')
  })
})
