/**
 * loopgate's commit stages the paths the tamper check's `git status` reported after the call (one
 * scan of the work tree per iteration), and still commits exactly the agent's work.
 */
import { appendFileSync, chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitWorkspace } from '../src/git/workspace.js'
import { publishRulesAt } from './helpers/publish-rules.js'
import { gitIn, runAttack } from './helpers/gate-fixture.js'
import { makeRepo } from './helpers/repo.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

function committed(ws: string, commit: string): string[] {
  return gitIn(ws, ['diff-tree', '-r', '--no-commit-id', '--name-only', commit]).split('\n').filter(Boolean)
}

test('a call that fixes the code and adds a protected test: the added test is removed, the fix is committed and verified', async () => {
  const r = await runAttack({ isolation: 'weak', script: `${FIX}echo "console.log('✓ always')" > test/extra.mjs\n` })
  expect(r.report.stopReason).toBe('verified')
  const first = r.report.run!.iterations[0]
  expect(first.tampered).toBe(true)
  expect(first.changedFiles).toEqual(['src/math.mjs'])
  expect(committed(r.ws, first.commit!)).toEqual(['src/math.mjs'])
})

describe('GitWorkspace.commitIteration with the paths a status check reported', () => {
  async function workspace(): Promise<{ dir: string; ws: GitWorkspace }> {
    const dir = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'gone.txt': 'g\n' })
    return { dir, ws: new GitWorkspace({ dir, progressFile: 'progress.md', rules: await publishRulesAt(dir) }) }
  }

  test('stages the reported paths (a change, an addition, a deletion)', async () => {
    const { dir, ws } = await workspace()
    await ws.prepare()
    appendFileSync(path.join(dir, 'a.txt'), 'more\n')
    writeFileSync(path.join(dir, 'new.txt'), 'new\n')
    rmSync(path.join(dir, 'gone.txt'))
    const change = await ws.commitIteration('r1', 1, ['a.txt', 'gone.txt', 'new.txt'])
    expect(change.changedFiles.sort()).toEqual(['a.txt', 'gone.txt', 'new.txt'])
    expect(committed(dir, change.commit!).sort()).toEqual(['a.txt', 'gone.txt', 'new.txt'])
  })

  test('a reported path that is gone from the tree and the index: everything changed is staged', async () => {
    const { dir, ws } = await workspace()
    await ws.prepare()
    appendFileSync(path.join(dir, 'b.txt'), 'more\n')
    const change = await ws.commitIteration('r1', 1, ['b.txt', 'removed-since.txt'])
    expect(change.changedFiles).toEqual(['b.txt'])
    expect(committed(dir, change.commit!)).toEqual(['b.txt'])
  })

  test('a file that became a folder, a mode change and a link: committed as git add would', async () => {
    const { dir, ws } = await workspace()
    await ws.prepare()
    rmSync(path.join(dir, 'a.txt'))
    mkdirSync(path.join(dir, 'a.txt'))
    writeFileSync(path.join(dir, 'a.txt', 'inner.txt'), 'inner\n')
    chmodSync(path.join(dir, 'b.txt'), 0o755)
    symlinkSync('b.txt', path.join(dir, 'link'))
    const change = await ws.commitIteration('r1', 1, ['a.txt', 'a.txt/inner.txt', 'b.txt', 'link'])
    const tree = gitIn(dir, ['ls-tree', '-r', change.commit!])
    expect(tree).toMatch(/^100644 blob \S+\ta\.txt\/inner\.txt$/m)
    expect(tree).not.toMatch(/\ta\.txt$/m)
    expect(tree).toMatch(/^100755 blob \S+\tb\.txt$/m)
    expect(tree).toMatch(/^120000 blob \S+\tlink$/m)
  })

  test('a reported path beyond a link (git refuses to name it): everything changed is staged', async () => {
    const { dir, ws } = await workspace()
    await ws.prepare()
    mkdirSync(path.join(dir, 'real'))
    writeFileSync(path.join(dir, 'real', 'r.txt'), 'r\n')
    symlinkSync('real', path.join(dir, 'via'))
    const change = await ws.commitIteration('r1', 1, ['real/r.txt', 'via', 'via/r.txt'])
    const tree = gitIn(dir, ['ls-tree', '-r', change.commit!])
    expect(tree).toMatch(/^120000 blob \S+\tvia$/m)
    expect(tree).not.toMatch(/\tvia\/r\.txt$/m)
    expect(tree).toMatch(/\treal\/r\.txt$/m)
  })

  test('without a report it scans the work tree itself', async () => {
    const { dir, ws } = await workspace()
    await ws.prepare()
    appendFileSync(path.join(dir, 'a.txt'), 'more\n')
    const change = await ws.commitIteration('r1', 1)
    expect(change.changedFiles).toEqual(['a.txt'])
  })

  /** A prepared workspace with one iteration committed (a.txt changed). */
  async function afterOneCommit(): Promise<{ dir: string; ws: GitWorkspace; commit: string | null }> {
    const { dir, ws } = await workspace()
    await ws.prepare()
    appendFileSync(path.join(dir, 'a.txt'), 'more\n')
    return { dir, ws, commit: (await ws.commitIteration('r1', 1, ['a.txt'])).commit }
  }

  test('HEAD is the commit once the next step here runs', async () => {
    const { dir, ws, commit } = await afterOneCommit()
    expect(await ws.head()).toBe(commit)
    expect(gitIn(dir, ['rev-parse', 'HEAD']).trim()).toBe(commit)
    expect(await ws.hasChangesSince(gitIn(dir, ['rev-parse', 'HEAD~1']).trim())).toBe(true)
  })

  test('a HEAD that something else moved fails the next step loudly instead of being overwritten', async () => {
    const { dir, ws, commit } = await afterOneCommit()
    expect(await ws.head()).toBe(commit)
    gitIn(dir, ['-c', 'user.name=someone', '-c', 'user.email=someone@example.com', 'commit', '-q', '--allow-empty', '-m', 'not loopgate'])
    const moved = gitIn(dir, ['rev-parse', 'HEAD']).trim()
    appendFileSync(path.join(dir, 'b.txt'), 'more\n')
    await ws.commitIteration('r1', 2, ['b.txt'])
    await expect(ws.head()).rejects.toThrow(/update-ref/)
    expect(gitIn(dir, ['rev-parse', 'HEAD']).trim()).toBe(moved)
  })
})
