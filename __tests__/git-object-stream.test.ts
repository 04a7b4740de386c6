import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { ObjectStream } from '../src/git/object-stream.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

/** What a one-off `git cat-file --batch` answers for `specs`: the bytes the stream must give back. */
const oneOff = (gitDir: string, specs: string[]): Buffer =>
  execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { input: specs.map((s) => `${s}\n`).join('') })

describe('the object stream', () => {
  // A blob whose lines look like cat-file headers, and one larger than a pipe's buffer.
  const tricky = `${'0'.repeat(40)} blob 3\nabc\nx missing\n`
  const large = 'y'.repeat(300_000)
  let repo: string
  let gitDir: string
  let head: string
  beforeAll(() => {
    repo = makeRepo({ 'a.txt': tricky, 'big.txt': large, 'dir/b.txt': 'b\n' })
    gitDir = path.join(repo, '.git')
    head = sh(repo, ['rev-parse', 'HEAD']).trim()
  })

  it('answers each read as one cat-file would, missing objects and large blobs included', async () => {
    const stream = new ObjectStream(gitDir)
    try {
      const specs = [`${head}:a.txt`, `${head}:nope`, `${head}:big.txt`, `${head}:dir`, `${head}:a file with spaces`]
      expect((await stream.read(specs)).equals(oneOff(gitDir, specs))).toBe(true)
      // Reads at once get their own answers, in order.
      const [first, second] = await Promise.all([stream.read([`${head}:dir/b.txt`]), stream.read([`${head}:big.txt`, `${head}:a.txt`])])
      expect(first.equals(oneOff(gitDir, [`${head}:dir/b.txt`]))).toBe(true)
      expect(second.equals(oneOff(gitDir, [`${head}:big.txt`, `${head}:a.txt`]))).toBe(true)
      expect((await stream.read([])).length).toBe(0)
    } finally {
      stream.close()
    }
  })

  it('sees a commit made after it started, and starts again after close', async () => {
    const stream = new ObjectStream(gitDir)
    try {
      await stream.read([`${head}:a.txt`])
      writeFileSync(path.join(repo, 'c.txt'), 'new\n')
      sh(repo, ['add', '-A'])
      sh(repo, ['commit', '-q', '-m', 'later'])
      const later = sh(repo, ['rev-parse', 'HEAD']).trim()
      expect((await stream.read([`${later}:c.txt`])).toString()).toMatch(/ blob 4\nnew\n\n$/)
      stream.close()
      expect((await stream.read([`${later}:c.txt`])).toString()).toMatch(/ blob 4\nnew\n\n$/)
    } finally {
      stream.close()
    }
  })

  it('fails a read when git cannot run there, and refuses a name with a line break', async () => {
    const stream = new ObjectStream(path.join(tempDir(), 'not-a-repo.git'))
    await expect(stream.read([`${'a'.repeat(40)}:x`])).rejects.toThrow(/cat-file/)
    await expect(new ObjectStream(gitDir).read(['x\ny'])).rejects.toThrow(/line break/)
  })

  it('keeps Node running while a read waits, and not after', () => {
    const script = [
      `import { ObjectStream } from ${JSON.stringify(path.join(import.meta.dirname, '..', 'src', 'git', 'object-stream.ts'))}`,
      `const stream = new ObjectStream(${JSON.stringify(gitDir)})`,
      `stream.read([${JSON.stringify(`${head}:big.txt`)}]).then((b) => console.log('answered', b.length))`
    ].join('\n')
    const file = path.join(tempDir(), 'read.mts')
    writeFileSync(file, script)
    // The stream is never closed: the process must still end once the read is answered.
    const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 60_000 })
    expect(run.error).toBeUndefined()
    expect(run.stdout.trim()).toBe(`answered ${oneOff(gitDir, [`${head}:big.txt`]).length}`)
    expect(run.status).toBe(0)
  })
})
