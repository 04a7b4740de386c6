import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { wipBranchName } from '../src/git/branches.js'
import { CleanClone, pushWorkBranch, PushRejectedError, remoteFromEnv, withCleanClone } from '../src/git/clean-clone.js'
import { postStepWipPusher } from '../src/publish/github/wip.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const TOKEN = 'ghs_cleanCloneToken000000000000000001'

/** A bare remote at <server>/octo-org/octo-repo.git and a workspace cloned from it. */
function setup() {
  const server = tempDir('loopgate-server-')
  const bare = path.join(server, 'octo-org', 'octo-repo.git')
  const seed = makeRepo({ 'a.txt': 'a\n' })
  sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
  sh(seed, ['push', '-q', bare, 'main'])
  const parent = tempDir('loopgate-ws-')
  sh(parent, ['clone', '-q', bare, 'ws'])
  const ws = path.join(parent, 'ws')
  const env = { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: 'octo-org/octo-repo' }
  return { server, bare, ws, env }
}

function commit(ws: string, file: string, text: string, message: string): string {
  writeFileSync(path.join(ws, file), text)
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', message])
  return sh(ws, ['rev-parse', 'HEAD']).trim()
}

describe('publishing from a clean clone', () => {
  it('pushes the iteration commit without running a hook or config planted in the workspace', async () => {
    const { bare, ws, env } = setup()
    const sha = commit(ws, 'b.txt', 'b\n', `loopgate: iteration 1\n\nLoopgate-Run: r1\n`)
    const marker = path.join(tempDir(), 'pwned')
    writeFileSync(path.join(ws, '.git', 'hooks', 'pre-push'), `#!/bin/sh\ntouch ${marker}\nenv > ${marker}\n`, { mode: 0o755 })
    sh(ws, ['config', 'core.fsmonitor', `sh -c 'env > ${marker}'`])
    sh(ws, ['config', 'uploadpack.packObjectsHook', `sh -c 'env > ${marker}'`])
    sh(ws, ['config', 'core.hooksPath', path.join(ws, '.git', 'hooks')])
    await withCleanClone({ tempDir: tempDir(), repository: GitRepository.plain(ws), commit: sha, remote: remoteFromEnv(env, TOKEN) }, (c) =>
      pushWorkBranch(c, sha, 'loopgate/nightly')
    )
    expect(sh(bare, ['rev-parse', 'refs/heads/loopgate/nightly']).trim()).toBe(sha)
    expect(existsSync(marker)).toBe(false)
    expect(readFileSync(path.join(ws, '.git', 'config'), 'utf8')).not.toContain(TOKEN)
  })

  it('replaces its own earlier push, but never a branch someone else pushed to', async () => {
    const { bare, ws, env } = setup()
    const first = commit(ws, 'b.txt', '1\n', `loopgate: iteration 1\n\nLoopgate-Run: r1\n`)
    const remote = remoteFromEnv(env, TOKEN)
    await withCleanClone({ tempDir: tempDir(), repository: GitRepository.plain(ws), commit: first, remote }, (c) => pushWorkBranch(c, first, 'loopgate/x'))
    sh(ws, ['reset', '-q', '--hard', 'HEAD~1'])
    const second = commit(ws, 'b.txt', '2\n', `loopgate: iteration 1\n\nLoopgate-Run: r2\n`)
    await withCleanClone({ tempDir: tempDir(), repository: GitRepository.plain(ws), commit: second, remote }, (c) => pushWorkBranch(c, second, 'loopgate/x'))
    expect(sh(bare, ['rev-parse', 'refs/heads/loopgate/x']).trim()).toBe(second)

    // A person pushes to the loop branch: the next run must not overwrite it.
    const other = makeRepo({ 'z.txt': 'z\n' })
    sh(other, ['fetch', '-q', bare, 'loopgate/x'])
    sh(other, ['checkout', '-q', 'FETCH_HEAD'])
    writeFileSync(path.join(other, 'human.txt'), 'h\n')
    sh(other, ['add', '-A'])
    sh(other, ['commit', '-q', '-m', 'a human fix'])
    sh(other, ['push', '-q', bare, 'HEAD:refs/heads/loopgate/x'])
    const human = sh(bare, ['rev-parse', 'refs/heads/loopgate/x']).trim()
    sh(ws, ['reset', '-q', '--hard', 'HEAD~1'])
    const third = commit(ws, 'b.txt', '3\n', `loopgate: iteration 1\n\nLoopgate-Run: r3\n`)
    await expect(
      withCleanClone({ tempDir: tempDir(), repository: GitRepository.plain(ws), commit: third, remote }, (c) => pushWorkBranch(c, third, 'loopgate/x'))
    ).rejects.toBeInstanceOf(PushRejectedError)
    expect(sh(bare, ['rev-parse', 'refs/heads/loopgate/x']).trim()).toBe(human)
  })

  it('pushes unfinished work to the -wip branch (the post step after a cancellation)', async () => {
    const { bare, ws, env } = setup()
    const sha = commit(ws, 'c.txt', 'c\n', 'wip')
    const branch = wipBranchName('nightly')
    const pushWip = postStepWipPusher({ ...env, GITHUB_ACTIONS: 'true', RUNNER_TEMP: tempDir() }, TOKEN, { dryRun: false, signCommits: false })
    await pushWip?.({ repository: GitRepository.plain(ws), branch, head: sha })
    expect(branch).toBe('loopgate/nightly-wip')
    expect(sh(bare, ['rev-parse', 'refs/heads/loopgate/nightly-wip']).trim()).toBe(sha)
  })

  it('refuses a commit that is not in the workspace', async () => {
    const { ws, env } = setup()
    await expect(
      CleanClone.create({ tempDir: tempDir(), repository: GitRepository.plain(ws), commit: 'f'.repeat(40), remote: remoteFromEnv(env) })
    ).rejects.toThrow()
  })

  it('a push the remote rejects is not retried', async () => {
    const { bare, ws, env } = setup()
    const log = path.join(tempDir(), 'receives')
    writeFileSync(path.join(bare, 'hooks', 'pre-receive'), `#!/bin/sh\necho x >> "${log}"\necho "branch protected" >&2\nexit 1\n`, { mode: 0o755 })
    const sha = commit(ws, 'b.txt', 'b\n', `loopgate: iteration 1\n\nLoopgate-Run: r1\n`)
    const retries: number[] = []
    const clone = await CleanClone.create({
      tempDir: tempDir(),
      repository: GitRepository.plain(ws),
      commit: sha,
      remote: remoteFromEnv(env, TOKEN),
      pushRetry: { baseDelayMs: 10, onRetry: (_e, n) => retries.push(n) }
    })
    try {
      await expect(pushWorkBranch(clone, sha, 'loopgate/x')).rejects.toThrow(/remote rejected|pre-receive hook declined/)
    } finally {
      clone.dispose()
    }
    expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(1)
    expect(retries).toEqual([])
  })

  it('a push that meets a server error is tried three times, with the token kept out of the message', async () => {
    const { ws } = setup()
    let requests = 0
    const server = createServer((_req, res) => {
      requests++
      res.writeHead(503, { 'content-type': 'text/plain' }).end('unavailable')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const env = { GITHUB_SERVER_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, GITHUB_REPOSITORY: 'octo-org/octo-repo' }
      const sha = commit(ws, 'b.txt', 'b\n', 'x')
      const retries: number[] = []
      const clone = await CleanClone.create({
        tempDir: tempDir(),
        repository: GitRepository.plain(ws),
        commit: sha,
        remote: remoteFromEnv(env, TOKEN),
        pushRetry: { baseDelayMs: 10, onRetry: (_e, n) => retries.push(n) }
      })
      let message = ''
      try {
        await clone.push(sha, 'loopgate/x', 'force').catch((err: Error) => (message = err.message))
      } finally {
        clone.dispose()
      }
      expect(message).toContain('503')
      expect(message).not.toContain(TOKEN)
      expect(retries).toEqual([1, 2])
      expect(requests).toBeGreaterThanOrEqual(3)
    } finally {
      server.close()
    }
  })
})
