import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { returnCustody, takeCustody } from '../src/git/custody.js'
import { GateRepository } from '../src/git/gate-repository.js'
import { GitRepository } from '../src/git/repository.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}

function commit(dir: string, message: string): string {
  sh(dir, ['add', '-A'])
  sh(dir, ['commit', '-q', '-m', message])
  return sh(dir, ['rev-parse', 'HEAD']).trim()
}

describe('GitRepository: the named operations the gate, the upgrade and protection use', () => {
  test('objectsDir: the repository’s own objects, loopgate’s while it holds the repository', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    expect(await GitRepository.plain(dir).objectsDir()).toBe(path.join(dir, '.git', 'objects'))
    const custody = await takeCustody(dir, tempDir())
    try {
      expect(await GitRepository.held(custody).objectsDir()).toBe(path.join(custody.gitDir, 'objects'))
    } finally {
      await returnCustody(custody)
    }
  })

  test('shortId, describeTag and revListCount: what a version from git is made of', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const repo = GitRepository.plain(dir)
    const first = sh(dir, ['rev-parse', 'HEAD']).trim()
    expect(await repo.shortId(first, 7)).toBe(first.slice(0, 7))
    expect(await repo.describeTag(first, '*[0-9]*')).toBeNull()
    sh(dir, ['tag', 'v1.2.3'])
    write(dir, 'b.txt', 'b\n')
    const second = commit(dir, 'second')
    expect(await repo.describeTag(second, '*[0-9]*')).toBe(`v1.2.3-1-g${sh(dir, ['rev-parse', '--short', second]).trim()}`)
    expect(await repo.describeTag(second, 'release-*')).toBeNull()
    expect(await repo.revListCount(second)).toBe(2)
  })

  test('remotes and remoteDefaultBranch', async () => {
    const origin = makeRepo({ 'a.txt': 'a\n' })
    sh(origin, ['checkout', '-q', '-b', 'trunk'])
    const dir = makeRepo({ 'a.txt': 'a\n' })
    const repo = GitRepository.plain(dir)
    expect(await repo.remotes()).toEqual([])
    sh(dir, ['remote', 'add', 'origin', origin])
    expect(await repo.remotes()).toEqual(['origin'])
    expect(await repo.remoteDefaultBranch('origin')).toBe('trunk')
    sh(dir, ['remote', 'add', 'gone', path.join(tempDir(), 'nothing')])
    expect(await repo.remoteDefaultBranch('gone')).toBeNull()
  })

  test('lsTreeRecords are the records git writes, byte for byte (hashes over them stay what they were)', async () => {
    const dir = makeRepo({ 'package-lock.json': '{}\n', 'src/a b.js': 'a\n', 'test/t.js': 't\n' })
    const repo = GitRepository.plain(dir)
    const raw = sh(dir, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD'])
    expect((await repo.lsTreeRecords('HEAD', { recursive: true })).map((r) => `${r}\0`).join('')).toBe(raw)
    const lock = sh(dir, ['ls-tree', '-z', 'HEAD', '--', ':(literal)package-lock.json', ':(literal)yarn.lock'])
    expect((await repo.lsTreeRecords('HEAD', { paths: ['package-lock.json', 'yarn.lock'] })).map((r) => `${r}\0`).join('')).toBe(lock)
  })

  test('statusPaths, tryAddAll, revertToHead and refreshIndex', async () => {
    const dir = makeRepo({ 'package.json': '{}\n', 'other.txt': 'o\n' })
    const repo = GitRepository.plain(dir)
    write(dir, 'package.json', '{"a":1}\n')
    write(dir, 'yarn.lock', 'lock\n')
    write(dir, 'other.txt', 'changed\n')
    const specs = [':(literal)package.json', ':(literal)yarn.lock']
    expect((await repo.statusPaths(specs)).sort()).toEqual(['package.json', 'yarn.lock'])
    expect(await repo.tryAddAll([':(literal)package.json'])).toBe(true)
    expect(await repo.tryAddAll([':(literal)no/such/file'])).toBe(false)
    await repo.revertToHead([':(literal)package.json'])
    await repo.revertToHead([':(literal)yarn.lock'])
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('{}\n')
    expect(existsSync(path.join(dir, 'yarn.lock'))).toBe(false)
    expect(readFileSync(path.join(dir, 'other.txt'), 'utf8')).toBe('changed\n')
    await repo.refreshIndex()
    expect(await repo.statusPaths(['.'], { renames: false })).toEqual(['other.txt'])
  })

  test('revertToHead of a changed file and a new one together puts back both', async () => {
    const dir = makeRepo({ 'package.json': '{}\n' })
    const repo = GitRepository.plain(dir)
    write(dir, 'package.json', '{"a":1}\n')
    write(dir, 'yarn.lock', 'lock\n')
    await repo.revertToHead([':(literal)package.json', ':(literal)yarn.lock'])
    expect(readFileSync(path.join(dir, 'package.json'), 'utf8')).toBe('{}\n')
    expect(existsSync(path.join(dir, 'yarn.lock'))).toBe(false)
  })

  test('diffNumstat under a pathspec', async () => {
    const dir = makeRepo({ 'a.txt': 'a\n', 'progress.md': 'p\n' })
    const before = sh(dir, ['rev-parse', 'HEAD']).trim()
    write(dir, 'a.txt', 'a\nb\n')
    write(dir, 'progress.md', 'p\nq\n')
    const after = commit(dir, 'more')
    const repo = GitRepository.plain(dir)
    expect(await repo.diffNumstat(before, after, ['.', ':(exclude,literal)progress.md'])).toEqual([{ path: 'a.txt', insertions: 1, deletions: 0 }])
  })
})

/** A gate repository as the gate lays it out: a bare git dir with the workspace's objects as alternates, a checkout, its index. */
function gateOf(workspace: string): GateRepository {
  const privateDir = tempDir('loopgate-gate-private-')
  const gitDir = path.join(privateDir, 'repo.git')
  for (const d of ['objects/info', 'refs/heads']) mkdirSync(path.join(gitDir, d), { recursive: true })
  writeFileSync(path.join(gitDir, 'HEAD'), 'ref: refs/heads/main\n')
  writeFileSync(path.join(gitDir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n')
  writeFileSync(path.join(gitDir, 'objects', 'info', 'alternates'), `${path.join(workspace, '.git', 'objects')}\n`)
  const workTree = path.join(tempDir('loopgate-gate-'), 'checkout')
  mkdirSync(workTree)
  return new GateRepository({ gitDir, workTree, indexFile: path.join(gitDir, 'index') })
}

describe('GateRepository: the gate’s private repository, its checkout and index', () => {
  test('tree diffs and folders between two commits', async () => {
    const ws = makeRepo({ 'src/a.js': 'a\n', 'old/x.js': 'x\n' })
    const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
    sh(ws, ['rm', '-q', '-r', 'old'])
    write(ws, 'src/a.js', 'a2\n')
    write(ws, 'lib/b.js', 'b\n')
    const c1 = commit(ws, 'next')
    const gate = gateOf(ws)
    expect((await gate.diffTreeNames(c0, c1)).sort()).toEqual(['lib/b.js', 'old/x.js', 'src/a.js'])
    const records = await gate.diffTree(c0, c1)
    expect(records.find((r) => r.path === 'lib')).toMatchObject({ oldMode: '000000', newMode: '040000' })
    expect(records.find((r) => r.path === 'old/x.js')).toMatchObject({ oldMode: '100644', newMode: '000000' })
    expect(records.find((r) => r.path === 'src/a.js')?.object).toBe(sh(ws, ['rev-parse', `${c1}:src/a.js`]).trim())
    expect((await gate.treeFolders(c1)).sort()).toEqual(['lib', 'src'])
    const objects = (await gate.readObjects([`${c1}:src/a.js`, `${c1}:missing`])).toString()
    expect(objects).toContain('a2\n')
    expect(objects).toContain('missing')
  })

  test('checkout, checkoutIndex, indexInfo, updateIndexStat, refreshIndex and clean in the checkout', async () => {
    const ws = makeRepo({ 'src/a.js': 'a\n', 'src/b.js': 'b\n' })
    const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
    write(ws, 'src/a.js', 'a2\n')
    const c1 = commit(ws, 'next')
    const gate = gateOf(ws)
    const dir = gate.place.workTree
    const previous = process.umask(0)
    try {
      await gate.checkout(c0)
    } finally {
      process.umask(previous)
    }
    expect(readFileSync(path.join(dir, 'src/a.js'), 'utf8')).toBe('a\n')
    expect(lstatSync(path.join(dir, 'src/a.js')).mode & 0o022).toBe(0)
    expect(await gate.lsTreeRecursive(`${c0}:src`)).toHaveLength(2)
    // By path: the index takes the new entry, the file is written from it.
    const object = sh(ws, ['rev-parse', `${c1}:src/a.js`]).trim()
    await gate.indexInfo([`100644 ${object}\tsrc/a.js`])
    await gate.checkoutIndex(['src/a.js'])
    expect(readFileSync(path.join(dir, 'src/a.js'), 'utf8')).toBe('a2\n')
    writeFileSync(path.join(dir, 'src/b.js'), 'tampered\n')
    await gate.checkoutIndex(['src/b.js'], { quiet: true })
    expect(readFileSync(path.join(dir, 'src/b.js'), 'utf8')).toBe('b\n')
    await gate.updateIndexStat(['src/a.js'])
    await gate.refreshIndex()
    write(dir, 'planted.js', 'p\n')
    write(dir, 'node_modules/kept.js', 'k\n')
    await gate.clean(['node_modules'])
    expect(existsSync(path.join(dir, 'planted.js'))).toBe(false)
    expect(existsSync(path.join(dir, 'node_modules/kept.js'))).toBe(true)
  })

  test('the workspace’s configuration is never read: a filter it names does not run in the checkout', async () => {
    const ws = makeRepo({ '.gitattributes': '* filter=trap\n', 'a.js': 'a\n' })
    const marker = path.join(tempDir(), 'ran')
    sh(ws, ['config', 'filter.trap.smudge', `touch ${marker}; cat`])
    sh(ws, ['config', 'filter.trap.required', 'true'])
    const gate = gateOf(ws)
    await gate.checkout(sh(ws, ['rev-parse', 'HEAD']).trim())
    expect(readFileSync(path.join(gate.place.workTree, 'a.js'), 'utf8')).toBe('a\n')
    expect(existsSync(marker)).toBe(false)
  })
})
