import { execFileSync, spawnSync } from 'node:child_process'
import { runnerFoldersToMake } from '../src/gate/toolchain/runner-folders.js'
import { createHash } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, test } from '@jest/globals'
import { findDirt, recordFolders } from '../src/gate/checkout/folder-record.js'
import { ProtectedGate } from '../src/gate/protected-gate.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { GitRepository } from '../src/git/repository.js'
import { gateEnv } from '../src/agents/agent-env.js'
import { ensureAgentUser, type AgentUser } from '../src/isolation/agent-user.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { needs, hasTool } from './helpers/needs-tools.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

// What code under test does to the gate's clean checkout must never reach the next gate run:
// after each run, the checkout the next one gets is exactly its commit, and nothing else.

/** The gate command: writes what it sees (every entry, with its content's hash) and then runs this step's attack. */
const GATE_SCRIPT = `
import { execSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
const out = process.argv[2]
const stepFile = path.join(out, 'step')
const step = existsSync(stepFile) ? Number(readFileSync(stepFile, 'utf8')) : 0
const seen = {}
const walk = (rel) => {
  for (const name of readdirSync(rel || '.').sort()) {
    const p = rel ? rel + '/' + name : name
    if (p === 'node_modules') continue
    const st = lstatSync(p)
    if (st.isSymbolicLink()) seen[p] = 'link ' + readlinkSync(p)
    else if (st.isDirectory()) { seen[p] = 'dir'; walk(p) }
    else seen[p] = 'file ' + (st.mode & 0o111 ? 'x ' : '') + createHash('sha256').update(readFileSync(p)).digest('hex')
  }
}
walk('')
writeFileSync(path.join(out, 'seen-' + step + '.json'), JSON.stringify(seen, null, 1))
writeFileSync(stepFile, String(step + 1))
const attacks = JSON.parse(readFileSync(path.join(out, 'attacks.json'), 'utf8'))
for (const line of attacks[step] ?? []) {
  try { execSync(line, { shell: '/bin/sh', stdio: 'pipe' }) } catch (err) { writeFileSync(path.join(out, 'failed-' + step), String(err.stderr), { flag: 'a' }) }
}
`

/** What the gate must see for `commit`: every tracked entry, with its content's hash. */
function expectedView(ws: string, commit: string): Record<string, string> {
  const view: Record<string, string> = {}
  const listing = sh(ws, ['ls-tree', '-r', '-t', '-z', commit]).split('\0').filter(Boolean)
  for (const record of listing) {
    const [meta, rel] = record.split('\t')
    const [mode, , object] = meta.split(' ')
    if (mode === '040000') view[rel] = 'dir'
    else {
      const blob = execFileSync('git', ['cat-file', 'blob', object], { cwd: ws })
      view[rel] = mode === '120000' ? `link ${blob.toString()}` : `file ${mode === '100755' ? 'x ' : ''}${createHash('sha256').update(blob).digest('hex')}`
    }
  }
  // The runner's own folders, made empty for each run (see src/gate/toolchain/runner-folders.ts).
  for (const folder of runnerFoldersToMake()) view[folder] ??= 'dir'
  return view
}

let user: AgentUser | null = null
const userName = `${workerAgentUser()}-rs`

beforeAll(async () => {
  if (!hasTool('second-user')) return
  const made = await ensureAgentUser(userName)
  if ('user' in made) user = made.user
})

afterAll(() => {
  if (user) spawnSync('userdel', ['-r', '-f', userName], { stdio: 'ignore' })
})

function commitAll(ws: string, message: string): string {
  sh(ws, ['add', '-A'])
  sh(ws, ['commit', '-q', '-m', message])
  return sh(ws, ['rev-parse', 'HEAD']).trim()
}

interface DumpingGate {
  gate: ProtectedGate
  temp: string
  /** What the gate saw in its `step`-th run. */
  seen: (step: number) => Record<string, string>
}

/** A protected gate whose command writes what it sees, then runs `attacks[step]` (shell lines) as the gate user. */
async function dumpingGate(ws: string, base: string, gateUser: AgentUser, attacks: string[][], ownUser = true): Promise<DumpingGate> {
  const temp = tempDir('loopgate-restore-')
  chmodSync(temp, 0o755)
  const out = path.join(temp, 'out')
  mkdirSync(out, { mode: 0o777 })
  chmodSync(out, 0o777)
  const script = path.join(temp, 'gate.mjs')
  writeFileSync(script, GATE_SCRIPT, { mode: 0o644 })
  writeFileSync(path.join(out, 'attacks.json'), JSON.stringify(attacks))
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot: await BaseSnapshot.take(GitRepository.plain(ws), base, { paths: new ProtectedPaths(['test/**']) }),
    command: `${process.execPath} ${script} ${out}`,
    timeoutMs: 60000,
    env: gateEnv(process.env),
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate'),
    user: gateUser,
    ownUser
  })
  await gate.init()
  if (ownUser) {
    chownSync(path.join(temp, 'gate'), 0, gateUser.gid)
    chmodSync(path.join(temp, 'gate'), 0o710)
  }
  const seen = (step: number): Record<string, string> => JSON.parse(readFileSync(path.join(out, `seen-${step}.json`), 'utf8')) as Record<string, string>
  return { gate, temp, seen }
}

/**
 * Runs the gate on each commit in turn: each run sees exactly its commit, whatever the run before
 * it did; with a gate user of its own, every checkout after the first is made path by path.
 */
async function expectEachRunSeesItsCommit(
  ws: string,
  { gate, seen }: DumpingGate,
  commits: string[],
  ways = commits.map((_, i) => (i ? 'by path' : 'fresh'))
): Promise<void> {
  for (const [step, commit] of commits.entries()) {
    const verdict = await gate.run(commit)
    expect({ step, reason: verdict.reason, way: gate.checkout.lastWay }).toEqual({ step, reason: 'exit 0', way: ways[step] })
    expect({ step, seen: seen(step) }).toEqual({ step, seen: expectedView(ws, commit) })
  }
}

needs('second-user').test('what a gate run changes in its checkout is put back before the next run, whatever it changed', async () => {
  expect(user).not.toBeNull()
  const gateUser = user as AgentUser
  const ws = makeRepo({
    '.gitignore': 'node_modules/\n',
    'README.md': '# p\n',
    'src/a.js': 'export const a = 1\n',
    'src/lib/b.js': 'export const b = 2\n',
    'src/lib/a name with spaces, ü and ünïcödé.js': 'export const u = 1\n',
    'src/lib/deep/c.js': 'export const c = 3\n',
    'src/lib/deep/d.js': 'export const d = 4\n',
    'test/t.mjs': 'console.log("ok")\n',
    'data/kept.txt': 'data\n',
    'docs/guide.md': '# guide\n'
  })
  symlinkSync('../src/a.js', path.join(ws, 'data/link.js'))
  writeFileSync(path.join(ws, 'bin.sh'), '#!/bin/sh\necho run\n', { mode: 0o755 })
  const c0 = commitAll(ws, 'link and script')
  mkdirSync(path.join(ws, 'node_modules', 'dep'), { recursive: true })
  writeFileSync(path.join(ws, 'node_modules', 'dep', 'index.js'), 'module.exports = 1\n')
  writeFileSync(path.join(ws, 'src/a.js'), 'export const a = 10\n')
  const c1 = commitAll(ws, 'one')
  writeFileSync(path.join(ws, 'src/a.js'), 'export const a = 20\n')
  writeFileSync(path.join(ws, 'src/added.js'), 'export const added = 1\n')
  rmSync(path.join(ws, 'src/lib/deep/d.js'))
  const c2 = commitAll(ws, 'two')

  // A root-owned file outside the checkout: a link the gate leaves in a tracked file's place must never be written through.
  const outside = path.join(tempDir('loopgate-outside-'), 'outside.txt')
  writeFileSync(outside, 'untouched\n', { mode: 0o644 })
  const attacks: string[][] = [
    [
      'rm src/lib/b.js',
      'rm "src/lib/a name with spaces, ü and ünïcödé.js"',
      'rm src/a.js && echo "export const a = 666" > src/a.js',
      'echo planted > src/lib/deep/evil.js',
      'mkdir -p src/new/deeper && echo planted > src/new/deeper/x.js',
      // The root holds protected files: it takes no new entry during the gate command.
      'echo planted > src/root-plant.js',
      'mv src/lib/deep src/deep-moved && ln -s ../deep-moved src/lib/deep',
      `rm data/kept.txt && ln -s ${outside} data/kept.txt`,
      'rm docs/guide.md && mkdir docs/guide.md && echo planted > docs/guide.md/inside',
      'rm data/link.js && echo planted > data/link.js',
      'chmod 0700 data'
    ],
    ['echo planted >> src/added.js', 'echo planted >> src/a.js', 'rm -rf src/lib', 'rm bin.sh && echo planted > bin.sh && chmod +x bin.sh'],
    ['echo planted >> src/added.js', 'mkdir -p node_modules/.cache/x 2>/dev/null; true'],
    []
  ]
  const dumping = await dumpingGate(ws, c0, gateUser, attacks)
  await expectEachRunSeesItsCommit(ws, dumping, [c0, c1, c2, c2])
  await dumping.gate.settle()
  await dumping.gate.idle()
  expect(readFileSync(outside, 'utf8')).toBe('untouched\n')
  // The attacks wrote their run's own layer, which the next run never saw.
  expect(existsSync(path.join(dumping.temp, 'out', 'failed-0'))).toBe(false)
})

needs('second-user', 'setfacl').test('a default ACL the gate user puts on a folder does not let it rewrite what the next commit writes there', async () => {
  const gateUser = user as AgentUser
  const ws = makeRepo({ '.gitignore': 'node_modules/\n', 'src/a.js': 'export const a = 1\n', 'test/t.mjs': 'console.log("ok")\n' })
  const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
  writeFileSync(path.join(ws, 'src/added.js'), 'export const added = 1\n')
  const c1 = commitAll(ws, 'added')
  const attacks = [[`setfacl -d -m u:${gateUser.name}:rwx src`], ['echo planted >> src/added.js', 'echo planted >> src/a.js'], []]
  const dumping = await dumpingGate(ws, c0, gateUser, attacks)
  await expectEachRunSeesItsCommit(ws, dumping, [c0, c1, c1])
  await dumping.gate.idle()
  // The ACL went on src in the run's own layer, thrown away with it: the checkout's src never had it.
  expect(existsSync(path.join(dumping.temp, 'out', 'failed-0'))).toBe(false)
  expect(execFileSync('getfacl', ['-p', path.join(dumping.gate.checkout.dir, 'src')], { encoding: 'utf8' })).not.toContain(`default:user:${gateUser.name}`)
})

needs('second-user').test('from one commit to the next the checkout changes path by path: folders come and go, files become folders and links', async () => {
  expect(user).not.toBeNull()
  const ws = makeRepo({
    '.gitignore': 'node_modules/\n',
    'src/a.js': 'export const a = 1\n',
    'src/lib/deep/c.js': 'export const c = 3\n',
    'src/lib/deep/d.js': 'export const d = 4\n',
    'src/gone/only.js': 'x\n',
    'docs/guide.md': '# guide\n',
    'test/t.mjs': 'console.log("ok")\n'
  })
  symlinkSync('../src/a.js', path.join(ws, 'docs/link.js'))
  const c0 = commitAll(ws, 'start')
  rmSync(path.join(ws, 'src/lib'), { recursive: true })
  rmSync(path.join(ws, 'src/gone'), { recursive: true })
  mkdirSync(path.join(ws, 'src/new/x'), { recursive: true })
  writeFileSync(path.join(ws, 'src/new/x/y.js'), 'y\n')
  chmodSync(path.join(ws, 'src/a.js'), 0o755)
  rmSync(path.join(ws, 'docs/link.js'))
  symlinkSync('guide.md', path.join(ws, 'docs/link.js'))
  const c1 = commitAll(ws, 'folders gone and new, a mode, a link retargeted')
  rmSync(path.join(ws, 'docs/guide.md'))
  mkdirSync(path.join(ws, 'docs/guide.md'))
  writeFileSync(path.join(ws, 'docs/guide.md/index.md'), '# index\n')
  rmSync(path.join(ws, 'src/new'), { recursive: true })
  writeFileSync(path.join(ws, 'src/new'), 'now a file\n')
  rmSync(path.join(ws, 'docs/link.js'))
  writeFileSync(path.join(ws, 'docs/link.js'), 'now a file\n')
  const c2 = commitAll(ws, 'a file becomes a folder, a folder a file, a link a file')
  const dumping = await dumpingGate(ws, c0, user as AgentUser, [])
  await expectEachRunSeesItsCommit(ws, dumping, [c0, c1, c2, c0, c2, c1])
  await dumping.gate.idle()
})

test('a folder is looked into when its ctime changed, when it was recorded in the fence’s tick, or when loopgate touched it', () => {
  const dir = tempDir('loopgate-folders-')
  for (const d of ['a', 'a/b', 'a/b/c', 'd', 'e']) mkdirSync(path.join(dir, d))
  const fence = path.join(tempDir('loopgate-fence-'), 'fence')
  const record = recordFolders(dir, ['a', 'a/b', 'a/b/c', 'd', 'e'], fence)
  // A fence later than every folder's ctime: only a change shows.
  const clean = { stamps: record.stamps, fenceNs: record.fenceNs + 10_000_000_000n }
  expect(findDirt(dir, clean)).toEqual({ entries: [], whole: [] })
  // A fence no later than the folders' ctime (recorded in its tick): every folder is looked into.
  expect(findDirt(dir, { stamps: record.stamps, fenceNs: 0n }).entries.sort()).toEqual(['', 'a', 'a/b', 'a/b/c', 'd', 'e'])
  // A file added, then the folder's times set back: its ctime still shows it.
  const past = new Date(Date.now() - 60_000)
  writeFileSync(path.join(dir, 'd', 'new'), '')
  utimesSync(path.join(dir, 'd'), past, past)
  // A folder moved away and another made in its place (the old one lives on, so its inode is not reused).
  renameSync(path.join(dir, 'a', 'b'), path.join(dir, 'moved'))
  mkdirSync(path.join(dir, 'a', 'b'))
  expect(findDirt(dir, clean, ['e/file'])).toEqual({ entries: ['', 'a', 'd', 'e'], whole: ['a/b'] })
  // A folder replaced by a link: restored whole, and nothing under it is visited through the link.
  rmSync(path.join(dir, 'a'), { recursive: true })
  symlinkSync(dir, path.join(dir, 'a'))
  expect(findDirt(dir, clean)).toEqual({ entries: ['', 'd'], whole: ['a'] })
})

needs('second-user').test('when the gate’s user is also the agent’s, what that user leaves in the checkout between gate runs is gone at the next', async () => {
  expect(user).not.toBeNull()
  const agentUser = user as AgentUser
  const ws = makeRepo({ '.gitignore': 'node_modules/\n', 'src/a.js': 'export const a = 1\n', 'test/t.mjs': 'console.log("ok")\n' })
  const base = sh(ws, ['rev-parse', 'HEAD']).trim()
  const dumping = await dumpingGate(ws, base, agentUser, [], false)
  expect((await dumping.gate.run(base)).reason).toBe('exit 0')
  // The agent's call, after the gate run: its user can reach the checkout and plants a file there.
  await new Promise((resolve) => setTimeout(resolve, 50))
  const plant = path.join(dumping.gate.checkout.dir, 'src', 'plant.js')
  writeFileSync(plant, 'planted\n')
  chownSync(plant, agentUser.uid, agentUser.gid)
  expect((await dumping.gate.run(base)).reason).toBe('exit 0')
  expect(dumping.seen(1)).toEqual(expectedView(ws, base))
  await dumping.gate.idle()
})

needs('second-user').test('a protected file the baseline set back to the base is the commit’s again at the next run', async () => {
  expect(user).not.toBeNull()
  const gateUser = user as AgentUser
  const ws = makeRepo({ '.gitignore': 'node_modules/\n', 'src/a.js': 'export const a = 1\n', 'test/t.mjs': 'process.exit(0)\n' })
  const base = sh(ws, ['rev-parse', 'HEAD']).trim()
  writeFileSync(path.join(ws, 'test/t.mjs'), 'process.exit(0) // changed on the branch\n')
  const start = commitAll(ws, 'tests changed on the branch')
  writeFileSync(path.join(ws, 'src/a.js'), 'export const a = 2\n')
  const next = commitAll(ws, 'source')
  const temp = tempDir('loopgate-restore-')
  chmodSync(temp, 0o755)
  const gate = new ProtectedGate({
    workspace: ws,
    repository: GitRepository.plain(ws),
    snapshot: await BaseSnapshot.take(GitRepository.plain(ws), base, { paths: new ProtectedPaths(['test/**']) }),
    command: `${process.execPath} test/t.mjs`,
    timeoutMs: 60000,
    env: gateEnv(process.env),
    privateDir: path.join(temp, 'private'),
    gateDir: path.join(temp, 'gate'),
    user: gateUser,
    ownUser: true
  })
  await gate.init()
  chownSync(path.join(temp, 'gate'), 0, gateUser.gid)
  chmodSync(path.join(temp, 'gate'), 0o710)
  const baseline = await gate.runBaseline(start)
  expect(baseline.verdict.passed).toBe(true)
  const verdict = await gate.run(next)
  expect(verdict.reason).toBe('protected files differ from the base in the clean checkout: test/t.mjs (modified)')
  await gate.idle()
})

needs('second-user').test('a folder a refused commit brought in is not the gate user’s at the next run either', async () => {
  expect(user).not.toBeNull()
  const ws = makeRepo({ '.gitignore': 'node_modules/\n', 'src/a.js': 'export const a = 1\n', 'test/t.mjs': 'console.log("ok")\n' })
  const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
  mkdirSync(path.join(ws, 'src/new'))
  writeFileSync(path.join(ws, 'src/new/b.js'), 'export const b = 2\n')
  writeFileSync(path.join(ws, 'test/t.mjs'), 'console.log("tampered")\n')
  const tampered = commitAll(ws, 'a new folder, and the test changed')
  writeFileSync(path.join(ws, 'test/t.mjs'), 'console.log("ok")\n')
  const fixed = commitAll(ws, 'the test as it was')
  const dumping = await dumpingGate(ws, c0, user as AgentUser, [[], ['echo written > src/new/out.txt']])
  expect((await dumping.gate.run(c0)).reason).toBe('exit 0')
  expect((await dumping.gate.run(tampered)).reason).toMatch(/^protected files differ from the base/)
  expect((await dumping.gate.run(fixed)).reason).toBe('exit 0')
  expect(dumping.seen(1)).toEqual(expectedView(ws, fixed))
  expect(existsSync(path.join(dumping.temp, 'out', 'failed-1'))).toBe(false)
  await dumping.gate.idle()
})

needs('second-user').test('with loopgate’s umask 000, a tracked file a gate run rewrites is its layer’s alone: the next run sees the commit', async () => {
  expect(user).not.toBeNull()
  const previous = process.umask(0)
  try {
    const ws = makeRepo({ '.gitignore': 'node_modules/\n', 'src/a.js': 'export const a = 1\n', 'test/t.mjs': 'console.log("ok")\n' })
    const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
    writeFileSync(path.join(ws, 'src/b.js'), 'export const b = 2\n')
    const c1 = commitAll(ws, 'b')
    const dumping = await dumpingGate(ws, c0, user as AgentUser, [['echo planted >> src/a.js'], ['echo planted >> src/b.js'], []])
    await expectEachRunSeesItsCommit(ws, dumping, [c0, c1, c1])
    // Each rewrite landed in its run's own layer: the next run saw its commit (above).
    for (const step of [0, 1]) expect(existsSync(path.join(dumping.temp, 'out', `failed-${step}`))).toBe(false)
    await dumping.gate.idle()
  } finally {
    process.umask(previous)
  }
})

needs('second-user').test('what a process of the gate user changes between gate runs (a job it scheduled, say) is gone at the next run', async () => {
  expect(user).not.toBeNull()
  const gateUser = user as AgentUser
  const ws = makeRepo({
    '.gitignore': 'node_modules/\n',
    'src/a.js': 'export const a = 1\n',
    'src/lib/b.js': 'export const b = 2\n',
    'test/t.mjs': 'console.log("ok")\n'
  })
  const c0 = sh(ws, ['rev-parse', 'HEAD']).trim()
  writeFileSync(path.join(ws, 'src/a.js'), 'export const a = 2\n')
  const c1 = commitAll(ws, 'a')
  // The first run plants something, so the checkout is put back in the background after it.
  const dumping = await dumpingGate(ws, c0, gateUser, [['echo planted > src/plant.js'], []])
  expect((await dumping.gate.run(c0)).reason).toBe('exit 0')
  await dumping.gate.idle()
  // After that, as the gate user: a tracked file replaced, and a file planted (refused: src/lib is not the gate user's).
  const checkout = dumping.gate.checkout.dir
  const plant = (command: string): void => {
    execFileSync('/bin/sh', ['-c', command], { uid: gateUser.uid, gid: gateUser.gid, stdio: 'pipe' })
  }
  expect(() => plant(`rm -f ${checkout}/src/lib/b.js`)).toThrow()
  expect(() => plant(`echo planted > ${checkout}/src/lib/conftest.py`)).toThrow()
  expect((await dumping.gate.run(c1)).reason).toBe('exit 0')
  expect(dumping.seen(1)).toEqual(expectedView(ws, c1))
  expect(dumping.gate.checkout.lastWay).toBe('by path')
  await dumping.gate.idle()
})
