import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitError } from '../src/git/command-line.js'
import { returnCustody, takeCustody } from '../src/git/custody.js'
import { GitRepository } from '../src/git/repository.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

const AUTHOR = { name: 'loopgate-test', email: 'loopgate-test@example.com' }

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}

/** A script that leaves `marker` behind when anything runs it. */
function trap(dir: string, marker: string): string {
  const script = path.join(dir, `trap-${path.basename(marker)}`)
  writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\ncat\n`)
  chmodSync(script, 0o755)
  return script
}

describe('GitRepository: named operations on a real repository', () => {
  test('head, revParse, tryRevParse, currentBranch, topLevel, commitMessage', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const repo = GitRepository.plain(dir)
    const head = sh(dir, ['rev-parse', 'HEAD']).trim()
    expect(await repo.head()).toBe(head)
    expect(await repo.tryHead()).toBe(head)
    expect(await repo.revParse('HEAD^{tree}')).toBe(sh(dir, ['rev-parse', 'HEAD^{tree}']).trim())
    expect(await repo.tryRevParse('refs/heads/nothing')).toBeNull()
    await expect(repo.revParse('refs/heads/nothing')).rejects.toThrow(GitError)
    expect(await repo.currentBranch()).toBe('main')
    sh(dir, ['checkout', '-q', '--detach'])
    expect(await repo.currentBranch()).toBeNull()
    expect(await GitRepository.plain(path.join(dir, '.')).topLevel()).toBe(sh(dir, ['rev-parse', '--show-toplevel']).trim())
    expect(await GitRepository.plain(tempDir()).topLevel()).toBeNull()
    expect(await GitRepository.plain(tempDir()).tryHead()).toBeNull()
    expect(await repo.commitMessage(head)).toBe('initial\n\n')
    expect(await repo.commitMessage('f'.repeat(40))).toBeNull()
  })

  test('commitTree and updateRef (with the old value it expects), isAncestor, revListCount', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const repo = GitRepository.plain(dir, AUTHOR)
    const base = await repo.head()
    const tree = await repo.revParse('HEAD^{tree}')
    const commit = await repo.commitTree(tree, [base], 'second\n\nTrailer: x\n')
    expect(sh(dir, ['log', '-1', '--format=%an <%ae>|%P|%B', commit]).trim()).toBe(`loopgate-test <loopgate-test@example.com>|${base}|second\n\nTrailer: x`)
    await repo.updateRef('HEAD', commit, { expect: base, message: 'commit: second' })
    expect(await repo.head()).toBe(commit)
    await expect(repo.updateRef('HEAD', base, { expect: base })).rejects.toThrow(/update-ref/)
    expect(await repo.head()).toBe(commit)
    expect(await repo.isAncestor(base, commit)).toBe(true)
    expect(await repo.isAncestor(commit, base)).toBe(false)
    expect(await repo.revListCount(`${base}..${commit}`)).toBe(1)
    expect(await repo.revListCount(`${base}..${commit}`, ['--invert-grep', '--grep=^Trailer: '])).toBe(0)
  })

  test('updateIndex, lsFiles, writeTree, readTree and diffNames through another index', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const repo = GitRepository.plain(dir)
    write(dir, 'c.txt', 'c\n')
    write(dir, 'a.txt', 'A\n')
    const r = await repo.updateIndex(['--add', '--remove'], ['c.txt', 'a.txt'])
    expect(r.exitCode).toBe(0)
    expect(await repo.lsFiles([])).toEqual(['a.txt', 'b.txt', 'c.txt'])
    expect(await repo.diffNames()).toEqual(['a.txt', 'c.txt'])
    const tree = await repo.writeTree()
    expect(sh(dir, ['ls-tree', '--name-only', tree]).split('\n').filter(Boolean)).toEqual(['a.txt', 'b.txt', 'c.txt'])
    const scratch = path.join(tempDir(), 'index')
    await repo.readTree('HEAD', { indexFile: scratch })
    expect(await repo.lsFiles([], { indexFile: scratch })).toEqual(['a.txt', 'b.txt'])
    expect(await repo.lsFiles([])).toEqual(['a.txt', 'b.txt', 'c.txt'])
    await repo.resetPaths(['a.txt'])
    expect(await repo.diffNames()).toEqual(['c.txt'])
    expect((await repo.updateIndex([], ['missing.txt'])).exitCode).not.toBe(0)
  })

  test('statusPorcelain lists untracked files one by one and a nested repository with a trailing slash', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    write(dir, 'a.txt', 'changed\n')
    write(dir, 'new/deep/file.txt', 'x\n')
    write(dir, 'tab\there.txt', 'x\n')
    const nested = path.join(dir, 'inner')
    mkdirSync(nested)
    sh(nested, ['init', '-q'])
    write(nested, 'f', 'f')
    expect((await GitRepository.plain(dir).statusPorcelain()).sort()).toEqual(['a.txt', 'inner/', 'new/deep/file.txt', 'tab\there.txt'])
  })

  test('diffNumstat, differs, lsTree, catFileBatch', async () => {
    const dir = makeRepo({ 'a.txt': 'one\ntwo\n', 'dir/b.txt': 'b\n' })
    const repo = GitRepository.plain(dir)
    const base = await repo.head()
    write(dir, 'a.txt', 'one\nTWO\nthree\n')
    writeFileSync(path.join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 0, 255]))
    sh(dir, ['add', '-A'])
    sh(dir, ['commit', '-q', '-m', 'next'])
    const next = await repo.head()
    expect(await repo.diffNumstat(base, next)).toEqual([
      { path: 'a.txt', insertions: 2, deletions: 1 },
      { path: 'bin.dat', insertions: null, deletions: null }
    ])
    expect(await repo.differs(base, next, ['dir'])).toBe(false)
    expect(await repo.differs(base, next, ['a.txt'])).toBe(true)
    expect(await repo.diffNames({ from: base, to: next })).toEqual(['a.txt', 'bin.dat'])
    const top = await repo.lsTree(next)
    expect(top.map((e) => [e.type, e.path])).toEqual([
      ['blob', 'a.txt'],
      ['blob', 'bin.dat'],
      ['tree', 'dir']
    ])
    const deep = await repo.lsTree(next, { recursive: true, paths: ['dir'] })
    expect(deep).toEqual([{ mode: '100644', type: 'blob', oid: sh(dir, ['rev-parse', `${next}:dir/b.txt`]).trim(), path: 'dir/b.txt' }])
    const bin = top.find((e) => e.path === 'bin.dat')!.oid
    const blobs = await repo.catFileBatch([bin, deep[0].oid])
    expect(blobs.get(bin)).toEqual(Buffer.from([0, 1, 2, 0, 255]))
    expect(blobs.get(deep[0].oid)?.toString()).toBe('b\n')
    await expect(repo.catFileBatch(['0'.repeat(40)])).rejects.toThrow(/missing/)
  })

  test('fetch, push with a lease, remoteRef', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const remote = tempDir()
    sh(remote, ['init', '-q', '--bare'])
    const repo = GitRepository.plain(dir)
    const head = await repo.head()
    await repo.push(remote, [`${head}:refs/heads/work`], { lease: { ref: 'refs/heads/work', expect: null } })
    expect(await repo.remoteRef(remote, 'refs/heads/work')).toBe(head)
    expect(await repo.remoteRef(remote, 'refs/heads/none')).toBeNull()
    const next = await repo.commitTree(await repo.revParse('HEAD^{tree}'), [head], 'next\n')
    // The branch exists now: a lease that expects none refuses.
    await expect(repo.push(remote, [`${next}:refs/heads/work`], { lease: { ref: 'refs/heads/work', expect: null } })).rejects.toMatchObject({
      result: { stdout: expect.stringMatching(/stale info|rejected/) }
    })
    await repo.push(remote, [`${next}:refs/heads/work`], { lease: { ref: 'refs/heads/work', expect: head } })
    expect(await repo.remoteRef(remote, 'refs/heads/work')).toBe(next)
    const other = GitRepository.plain(makeRepo({ 'z.txt': 'z\n' }))
    await other.fetch(remote, ['+refs/heads/work:refs/remotes/r/work'])
    expect(await other.revParse('refs/remotes/r/work')).toBe(next)
  })

  test('configList reads a config file as data, no include followed; unsetConfig removes a key', async () => {
    const dir = tempDir()
    const included = path.join(dir, 'included')
    writeFileSync(included, '[core]\n\tfsmonitor = /bin/false\n')
    const file = path.join(dir, 'config')
    writeFileSync(file, `[http]\n\textraheader = A\n\textraheader = B\n[include]\n\tpath = ${included}\n[flag]\n\tbare\n`)
    const repo = GitRepository.plain(dir)
    expect(await repo.configList(file)).toEqual([
      { key: 'http.extraheader', value: 'A' },
      { key: 'http.extraheader', value: 'B' },
      { key: 'include.path', value: included },
      { key: 'flag.bare', value: null }
    ])
    expect(await repo.configList(file, { regexp: '^http\\.' })).toHaveLength(2)
    await repo.unsetConfig(file, 'http.extraheader', 'A')
    expect(await repo.configList(file, { regexp: '^http\\.' })).toEqual([{ key: 'http.extraheader', value: 'B' }])
    await repo.unsetConfig(file, 'http.extraheader')
    await repo.unsetConfig(file, 'http.extraheader')
    expect(await repo.configList(file, { regexp: '^http\\.' })).toEqual([])
  })
})

describe("GitRepository never runs what the agent's configuration asks for", () => {
  test("a held repository's commands use loopgate's git directory: the agent's hooks, fsmonitor and filters never run", async () => {
    const ws = makeRepo({ 'a.txt': 'a\n', '.gitattributes': '* filter=evil\n' })
    const runDir = tempDir('loopgate-custody-')
    const custody = await takeCustody(ws, runDir)
    const traps = tempDir()
    const marker = path.join(traps, 'ran')
    const script = trap(traps, marker)
    const hooks = path.join(ws, '.git', 'hooks')
    mkdirSync(hooks, { recursive: true })
    for (const hook of ['pre-commit', 'post-commit', 'reference-transaction', 'post-index-change', 'pre-push'])
      writeFileSync(path.join(hooks, hook), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    sh(ws, ['config', 'core.hooksPath', hooks])
    sh(ws, ['config', 'core.fsmonitor', script])
    sh(ws, ['config', 'filter.evil.clean', script])
    sh(ws, ['config', 'core.worktree', traps])
    try {
      const repo = GitRepository.held(custody)
      write(ws, 'a.txt', 'changed by the agent\n')
      expect(await repo.statusPorcelain()).toEqual(['a.txt'])
      await repo.updateIndex(['--add', '--remove'], ['a.txt'])
      const tree = await repo.writeTree()
      const commit = await repo.commitTree(tree, [await repo.head()], 'loopgate\n')
      await repo.updateRef('HEAD', commit)
      // The blob is the file's bytes: no clean filter rewrote them.
      expect((await repo.catFileBatch([await repo.revParse(`${commit}:a.txt`)])).values().next().value?.toString()).toBe('changed by the agent\n')
      expect(existsSync(marker)).toBe(false)
      // The commit is in loopgate's git directory, not in the agent's copy.
      expect(await repo.head()).toBe(commit)
      expect(sh(ws, ['rev-parse', 'HEAD']).trim()).not.toBe(commit)
    } finally {
      await returnCustody(custody)
    }
  })

  test('a plain repository: its hooksPath and fsmonitor are pinned off, and no global or system configuration is read', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const traps = tempDir()
    const marker = path.join(traps, 'ran')
    const script = trap(traps, marker)
    const hooks = path.join(traps, 'hooks')
    mkdirSync(hooks)
    for (const hook of ['post-index-change', 'reference-transaction', 'pre-push'])
      writeFileSync(path.join(hooks, hook), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 })
    sh(dir, ['config', 'core.hooksPath', hooks])
    sh(dir, ['config', 'core.fsmonitor', script])
    const global = path.join(traps, 'global')
    writeFileSync(global, `[core]\n\tfsmonitor = ${script}\n[alias]\n\tstatus = !touch '${marker}'\n`)
    const saved = { global: process.env.GIT_CONFIG_GLOBAL, system: process.env.GIT_CONFIG_SYSTEM }
    process.env.GIT_CONFIG_GLOBAL = global
    process.env.GIT_CONFIG_SYSTEM = global
    try {
      const repo = GitRepository.plain(dir)
      write(dir, 'a.txt', 'b\n')
      expect(await repo.statusPorcelain()).toEqual(['a.txt'])
      await repo.updateIndex(['--add'], ['a.txt'])
      await repo.updateRef('refs/heads/other', await repo.head())
      const remote = tempDir()
      sh(remote, ['init', '-q', '--bare'])
      await repo.push(remote, ['HEAD:refs/heads/x'])
      expect(existsSync(marker)).toBe(false)
    } finally {
      process.env.GIT_CONFIG_GLOBAL = saved.global
      process.env.GIT_CONFIG_SYSTEM = saved.system
      if (saved.global === undefined) delete process.env.GIT_CONFIG_GLOBAL
      if (saved.system === undefined) delete process.env.GIT_CONFIG_SYSTEM
    }
  })
})

describe('GitError', () => {
  test('carries the command, its exit code and stderr, with the secrets it was given replaced', async () => {
    const token = 'ghs_SECRET_TOKEN_1234'
    const repo = GitRepository.plain(makeRepo({ 'a.txt': 'a\n' }))
    const err = (await repo.fetch(`/nonexistent/${token}`, ['HEAD'], { secrets: [token] }).catch((e: unknown) => e)) as GitError
    expect(err).toBeInstanceOf(GitError)
    expect(err.message).toMatch(/^git fetch --no-tags --quiet -- \/nonexistent\/\*\*\* HEAD failed \(exit 128\): /)
    expect(err.message).toMatch(/does not appear to be a git repository/)
    expect(err.result.exitCode).toBe(128)
    expect(err.result.stderr).toContain('/nonexistent/***')
    expect(`${err.message}${err.args.join(' ')}${err.result.stderr}${err.result.stdout}`).not.toContain(token)
  })
})
