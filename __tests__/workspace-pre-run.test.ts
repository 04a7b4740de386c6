/** The change set is what the agent changed: files untracked before the first call stay out. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gitIn, runAttack } from './helpers/gate-fixture.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
const LOCKFILE = `${JSON.stringify({ name: 'p', lockfileVersion: 3, packages: { '': { name: 'p' } } }, null, 2)}\n`

/** The user's own files before the run: a lockfile and a note (untracked), a local env file (ignored). */
function userFiles(ws: string): void {
  writeFileSync(path.join(ws, 'package-lock.json'), LOCKFILE)
  mkdirSync(path.join(ws, 'notes'))
  writeFileSync(path.join(ws, 'notes', 'todo.txt'), 'my own notes\n')
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules/\n.env.local\n')
  gitIn(ws, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qam', 'ignore .env.local'])
  writeFileSync(path.join(ws, '.env.local'), 'SECRET=local\n')
}

/** Every file any loopgate commit (start..HEAD) added or changed. */
function committedFiles(ws: string, start: string): string[] {
  return gitIn(ws, ['log', '--format=', '--name-only', `${start}..HEAD`])
    .split('\n')
    .filter(Boolean)
}

test('files untracked before the run are in no loopgate commit and not in the verified change set', async () => {
  let start = ''
  const r = await runAttack({
    isolation: 'weak',
    prepare: (ws) => {
      userFiles(ws)
      start = gitIn(ws, ['rev-parse', 'HEAD']).trim()
    },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  expect(r.report.run?.iterations[0].changedFiles).toEqual(['src/math.mjs'])
  expect(committedFiles(r.ws, start)).toEqual(['src/math.mjs'])
  // Still the user's, still where they were.
  expect(existsSync(path.join(r.ws, 'package-lock.json'))).toBe(true)
  expect(gitIn(r.ws, ['status', '--porcelain'])).toContain('?? package-lock.json')
})

test('an agent that changes nothing is no progress, whatever untracked files were there', async () => {
  let start = ''
  const r = await runAttack({
    isolation: 'weak',
    inputs: { 'no-progress-limit': '2' },
    prepare: (ws) => {
      userFiles(ws)
      start = gitIn(ws, ['rev-parse', 'HEAD']).trim()
    },
    script: 'true\n'
  })
  expect(r.report.run?.iterations.map((i) => i.commit)).toEqual([null, null])
  expect(r.report.stopReason).toBe('no-progress')
  expect(committedFiles(r.ws, start)).toEqual([])
})

test('a pre-run untracked file the agent edits is committed; an ignored one stays out even when un-ignored', async () => {
  let start = ''
  const r = await runAttack({
    isolation: 'weak',
    prepare: (ws) => {
      userFiles(ws)
      start = gitIn(ws, ['rev-parse', 'HEAD']).trim()
    },
    // (A pre-run lockfile the agent rewrites is a dependency change: see the gate's toolchain.)
    script: `${FIX}echo 'and more' >> notes/todo.txt\nprintf '' > .gitignore\n`
  })
  expect(r.report.stopReason).toBe('verified')
  const committed = committedFiles(r.ws, start).sort()
  expect(committed).toEqual(['.gitignore', 'notes/todo.txt', 'src/math.mjs'])
  expect(gitIn(r.ws, ['show', 'HEAD:notes/todo.txt'])).toContain('and more')
})
