/**
 * The post step runs as root with the token in its environment after a killed main step: it must
 * treat everything the agent left (its repository config, the progress file) as data.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { runPost } from './helpers/action-runner.js'
import { baseInputs, runWithCache, useCacheService, waitForFile } from './cache-server/scenario.js'
import { buggyProject, makeRepo, sharedTempDir, sh, tempDir } from './helpers/repo.js'

describe('attacks on the post step', () => {
  const svc = useCacheService()

  test('a planted clean filter and a forged stop line, then main killed: nothing runs as root, the record says cancelled', async () => {
    const repo = makeRepo(buggyProject())
    const dir = sharedTempDir('loopgate-post-attack-')
    const mark = path.join(dir, 'filter-ran')
    const started = path.join(dir, 'started')
    const filter = `sh -c 'env > ${mark}; echo HIJACKED=1 >> "$GITHUB_ENV"; cat'`
    const agent = [
      `git config filter.x.clean "${filter}"`,
      `echo '* filter=x' > .git/info/attributes`,
      'echo loot > untracked.txt',
      "echo 'stop-reason: verified' >> .loopgate/progress.md",
      'mkdir -p .git/config.lock',
      `touch ${started}`,
      'exec sleep 60'
    ].join('; ')
    const inputs: Record<string, string> = { ...baseInputs('post-attack', { 'call-budget-usd': '3', 'spend-ceiling-usd': '10' }), 'agent-command': agent }
    const run = await runWithCache(svc, {
      workspace: repo,
      runnerTemp: tempDir('loopgate-runner-'),
      inputs,
      onSpawn: (child) => void waitForFile(started).then(() => child.kill('SIGKILL'))
    })
    expect(run.signal).toBe('SIGKILL')
    const envFile = path.join(tempDir('loopgate-github-env-'), 'env')
    writeFileSync(envFile, '')
    const post = await runPost(run, { workspace: repo, inputs, env: { ...svc.env(), GITHUB_TOKEN: inputs['github-token'], GITHUB_ENV: envFile } })
    expect(existsSync(mark)).toBe(false)
    expect(readFileSync(envFile, 'utf8')).not.toContain('HIJACKED')
    expect(post.outputs['stop-reason']).toBe('cancelled')
    // The agent's last edits are kept, committed by loopgate's own git.
    expect(sh(repo, ['show', 'HEAD:untracked.txt'])).toBe('loot\n')
    expect(readFileSync(path.join(repo, '.git', 'config'), 'utf8')).not.toContain('filter')
    rmSync(dir, { recursive: true, force: true })
  })
})
