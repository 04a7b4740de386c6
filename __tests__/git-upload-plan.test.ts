import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitRepository } from '../src/git/repository.js'
import { NotExpressibleError, planUpload } from '../src/git/upload-plan.js'
import { makeRepo, sh } from './helpers/repo.js'

/** What the GitHub API path sends of a history, read from a real repository. */
describe('planUpload', () => {
  const commitAll = (dir: string, message: string): string => {
    sh(dir, ['add', '-A'])
    sh(dir, ['commit', '-q', '-m', message])
    return sh(dir, ['rev-parse', 'HEAD']).trim()
  }

  it('sends only what the remote lacks: new files once, new trees whole and children first, commits parents first, every mode as git wrote it', async () => {
    const dir = makeRepo({ 'README.md': 'hello\n', 'lib/keep.txt': 'kept\n', 'lib/gone.txt': 'gone\n' })
    const base = sh(dir, ['rev-parse', 'HEAD']).trim()
    mkdirSync(path.join(dir, 'lib/deep'), { recursive: true })
    writeFileSync(path.join(dir, 'lib/deep/tool.sh'), '#!/bin/sh\necho hi\n')
    chmodSync(path.join(dir, 'lib/deep/tool.sh'), 0o755)
    symlinkSync('../README.md', path.join(dir, 'lib/link'))
    sh(dir, ['rm', '-q', 'lib/gone.txt'])
    const first = commitAll(dir, 'first')
    writeFileSync(path.join(dir, 'README.md'), 'hello again\n')
    sh(dir, ['add', 'README.md'])
    // A submodule's entry: a commit of another repository, only named.
    sh(dir, ['update-index', '--add', '--cacheinfo', `160000,${base},vendor/sub`])
    sh(dir, ['commit', '-q', '-m', 'second\n\nLoopgate-Run: 1-1'])
    const second = sh(dir, ['rev-parse', 'HEAD']).trim()

    const plan = await planUpload(GitRepository.plain(dir), second, [base])
    expect(plan.commits.map((c) => [c.sha, c.parents, c.message])).toEqual([
      [first, [base], 'first\n'],
      [second, [first], 'second\n\nLoopgate-Run: 1-1\n']
    ])
    expect(plan.commits.map((c) => c.tree)).toEqual([first, second].map((c) => sh(dir, ['rev-parse', `${c}^{tree}`]).trim()))
    // README twice (the second version), the script and the link's target: never a blob the base holds.
    const blobPaths = plan.blobs.map((b) => b.path).sort()
    expect(blobPaths).toEqual(['README.md', 'lib/deep/tool.sh', 'lib/link'])
    // Every new tree comes after the new trees it holds.
    const position = new Map(plan.trees.map((t, i) => [t.sha, i]))
    for (const tree of plan.trees)
      for (const e of tree.entries) if (e.type === 'tree' && position.has(e.sha)) expect(position.get(e.sha)!).toBeLessThan(position.get(tree.sha)!)
    const entries = plan.trees.flatMap((t) => t.entries.map((e) => `${e.mode} ${e.type} ${e.name}`))
    expect(entries).toEqual(
      expect.arrayContaining(['100755 blob tool.sh', '120000 blob link', '040000 tree deep', '160000 commit sub', '100644 blob keep.txt'])
    )
    expect(entries).not.toContain('100644 blob gone.txt')
    expect(plan.trees.find((t) => t.entries.some((e) => e.name === 'sub'))!.entries.find((e) => e.name === 'sub')!.sha).toBe(base)
  })

  it('a remote that has the whole history needs nothing', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const head = sh(dir, ['rev-parse', 'HEAD']).trim()
    expect(await planUpload(GitRepository.plain(dir), head, [head])).toEqual({ commits: [], trees: [], blobs: [] })
  })

  it('refuses a file name that is not UTF-8, which the API cannot carry', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const base = sh(dir, ['rev-parse', 'HEAD']).trim()
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]), 'x\n')
    const head = commitAll(dir, 'a name in Latin-1')
    await expect(planUpload(GitRepository.plain(dir), head, [base])).rejects.toThrow(NotExpressibleError)
    await expect(planUpload(GitRepository.plain(dir), head, [base])).rejects.toThrow(/not valid UTF-8, which the GitHub API cannot write/)
  })
})
