import { execFile } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from '@jest/globals'
import { CheckoutIndex } from '../src/gate/checkout/checkout-index.js'
import { treeChanges } from '../src/gate/checkout/checkout-fs.js'
import { checkoutDirOf, createGateRepo, gateRepoOf, gateRepositoryOf, type GateLocation } from '../src/gate/checkout/first-checkout.js'
import { GitRepository } from '../src/git/repository.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

// The gate reads its private repository (tree diffs) while it moves the checkout to the next
// commit: git takes a repository whose HEAD it finds empty for no repository at all.

async function gateAt(): Promise<{ loc: GateLocation; first: string; second: string }> {
  const ws = makeRepo({ 'a.txt': 'one\n', 'b.txt': 'two\n' })
  const first = sh(ws, ['rev-parse', 'HEAD']).trim()
  writeFileSync(path.join(ws, 'a.txt'), 'changed\n')
  sh(ws, ['commit', '-qam', 'second'])
  const second = sh(ws, ['rev-parse', 'HEAD']).trim()
  const loc = {
    workspace: ws,
    repository: GitRepository.plain(ws),
    privateDir: path.join(tempDir('loopgate-gate-private-'), 'gate'),
    gateDir: tempDir('loopgate-gate-dir-')
  }
  await createGateRepo(loc)
  mkdirSync(checkoutDirOf(loc))
  await gateRepositoryOf(loc).checkout(first)
  return { loc, first, second }
}

/** Runs `git diff-tree` on the gate's repository, `parallel` at a time, until `done`; the number that failed. */
function readWhile(repo: string, commit: string, done: () => boolean): Promise<number> {
  let failed = 0
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      execFile('git', ['--git-dir', repo, 'diff-tree', '-r', '--name-only', commit, commit], (err) => {
        if (err) failed++
        resolve()
      })
    })
  const reader = async (): Promise<void> => {
    while (!done()) await one()
  }
  return Promise.all([reader(), reader(), reader()]).then(() => failed)
}

test('moving the checkout replaces HEAD in one step: a tree diff running meanwhile always finds the repository', async () => {
  const { loc, first, second } = await gateAt()
  const repo = gateRepoOf(loc)
  const index = new CheckoutIndex(loc)
  const there = await treeChanges(gateRepositoryOf(loc), first, second)
  const back = await treeChanges(gateRepositoryOf(loc), second, first)
  const inodes = new Set<number>()
  let moving = true
  const reading = readWhile(repo, first, () => !moving)
  for (let i = 0; i < 60; i++) {
    await index.moveTo(i % 2 ? first : second, i % 2 ? back : there)
    inodes.add(statSync(path.join(repo, 'HEAD')).ino)
  }
  moving = false
  expect(await reading).toBe(0)
  // Each move puts a new file in place (a rename), never rewrites the one a reader has open.
  expect(inodes.size).toBeGreaterThan(1)
  expect(sh(loc.workspace, ['--git-dir', repo, 'rev-parse', 'HEAD']).trim()).toBe(first)
})
