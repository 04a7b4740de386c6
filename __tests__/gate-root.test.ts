/** Which folders above a gate checkout a run's user could write, and where the gate then judges. */
import { chmodSync, chownSync, existsSync, mkdirSync, utimesSync } from 'node:fs'
import path from 'node:path'
import { gateRoot, OWN_GATE_ROOT, sweepLeftBehind, unsafeAncestor } from '../src/gate/setup/gate-root.js'
import { tempDir } from './helpers/repo.js'

const root = process.getuid?.() === 0

/** A chain of folders under a fresh private one: `top` (given mode, owner), then `top/inner` (0755, root's). */
function chain(mode: number, owner: { uid: number; gid: number } = { uid: 0, gid: 0 }): { top: string; inner: string } {
  const base = tempDir('loopgate-gate-root-')
  chmodSync(base, 0o755)
  const top = path.join(base, 'top')
  const inner = path.join(top, 'inner')
  mkdirSync(inner, { recursive: true })
  chownSync(top, owner.uid, owner.gid)
  chmodSync(top, mode)
  return { top, inner }
}

const CASES: { what: string; mode: number; owner?: { uid: number; gid: number }; why: RegExp | null; env?: Record<string, string> }[] = [
  { what: 'a shared temp folder (1777)', mode: 0o1777, why: /every user may write it \(mode 1777\)/ },
  { what: 'a folder its group may write', mode: 0o775, owner: { uid: 0, gid: 65534 }, why: /its group 65534 may write it/ },
  { what: "another user's folder", mode: 0o755, owner: { uid: 65534, gid: 65534 }, why: /it belongs to user 65534/ },
  { what: 'the folder of the user who started loopgate through sudo', mode: 0o755, owner: { uid: 65534, gid: 65534 }, why: null, env: { SUDO_UID: '65534' } },
  { what: "root's own folder", mode: 0o755, why: null }
]

;(root ? describe : describe.skip)('the folders above the gate', () => {
  test.each(CASES)('$what', ({ mode, owner, why, env = {} }) => {
    const { top, inner } = chain(mode, owner)
    // The tests' temp root is itself shared: only the chain's own folders are judged here.
    const found = unsafeAncestor(inner, env)
    if (why === null) expect(found === null || !found.dir.startsWith(top)).toBe(true)
    else {
      expect(found?.dir).toBe(top)
      expect(found?.why).toMatch(why)
    }
  })

  test('a temp folder under a shared one: the gate judges in loopgate’s own folder, and says why', () => {
    const { inner } = chain(0o1777)
    const placed = gateRoot(inner, {})
    expect(placed.root).toBe(OWN_GATE_ROOT)
    expect(placed.note).toContain('mode 1777')
    expect(unsafeAncestor(placed.root, {})).toBeNull()
  })
})

;(root ? describe : describe.skip)("loopgate's own gate folder", () => {
  test('gate folders older than any run can last are removed; a live run’s is kept', () => {
    const dir = tempDir('loopgate-gate-sweep-')
    const old = path.join(dir, 'loop-killed-run')
    const live = path.join(dir, 'loop-live-run')
    mkdirSync(old)
    mkdirSync(live)
    const nineDaysAgo = new Date(Date.now() - 9 * 24 * 60 * 60 * 1000)
    utimesSync(old, nineDaysAgo, nineDaysAgo)
    expect(sweepLeftBehind(dir)).toEqual([old])
    expect(existsSync(live)).toBe(true)
  })
})
