import { execFileSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { git } from '../git/git.js'
import type { AgentUser } from '../isolation/agent-user.js'
import { findTampering, revertTampering, type Tampering } from './compare.js'
import { listTree, type BaseSnapshot } from './snapshot.js'

/** Untracked dependency folders taken from a pristine copy, never from the agent's workspace. */
export const DEPENDENCY_DIRS = ['node_modules', '.venv', 'venv']

export interface CheckoutOptions {
  workspace: string
  snapshot: BaseSnapshot
  /** Root-only directory: the private git dir and the pristine dependency copies. */
  privateDir: string
  /** Where the clean checkout is made (reachable by the gate user). */
  gateDir: string
  /** The gate runs as this user; the checkout is locked against it. */
  user?: AgentUser
  /** Whether gate-setup will rewrite the dependency folders (then they get a writable copy). */
  writableDeps: boolean
}

export interface PreparedCheckout {
  dir: string
  home: string
  tmp: string
  /** Protected paths that differ from the base in the checkout (empty when verified). */
  mismatches: Tampering[]
  timings: Record<string, number>
}

function cp(args: string[]): void {
  execFileSync('cp', args, { stdio: 'pipe' })
}

/**
 * The gate's clean checkout: the iteration's commit read from a private git dir (the workspace's
 * objects as alternates, loopgate's own config — no filters, hooks or attributes file of the
 * agent's), the protected paths verified byte-for-byte against the base snapshot, the dependency
 * folders copied from the pristine copy.
 */
export class CleanCheckout {
  readonly repo: string
  readonly pristine: string
  readonly deps: string[] = []

  constructor(private readonly opts: CheckoutOptions) {
    this.repo = path.join(opts.privateDir, 'repo.git')
    this.pristine = path.join(opts.privateDir, 'deps')
  }

  /** Before the first agent call: the private git dir and the pristine dependency copies. */
  async init(): Promise<void> {
    mkdirSync(this.opts.privateDir, { recursive: true, mode: 0o700 })
    chmodSync(this.opts.privateDir, 0o700)
    rmSync(this.repo, { recursive: true, force: true })
    await git(['init', '--bare', '-q', this.repo], { cwd: this.opts.privateDir })
    const common = (await git(['rev-parse', '--git-common-dir'], { cwd: this.opts.workspace })).stdout.trim()
    const objects = path.resolve(this.opts.workspace, common, 'objects')
    writeFileSync(path.join(this.repo, 'objects', 'info', 'alternates'), `${objects}\n`)
    mkdirSync(this.pristine, { recursive: true, mode: 0o700 })
    for (const name of DEPENDENCY_DIRS) {
      const src = path.join(this.opts.workspace, name)
      let st
      try {
        st = lstatSync(src)
      } catch {
        continue
      }
      if (!st.isDirectory()) continue
      const tracked = await git(['ls-files', '-z', '--', `:(literal)${name}`], { cwd: this.opts.workspace })
      if (tracked.stdout) continue
      const dest = path.join(this.pristine, name)
      rmSync(dest, { recursive: true, force: true })
      // Owned by root (no ownership preserved), nothing group/other-writable: the gate user can read
      // the hardlinked files but never write through them.
      cp(['-R', '--no-dereference', '--preserve=mode,timestamps,links', '--reflink=auto', src, dest])
      execFileSync('chmod', ['-R', 'go-w', dest])
      this.deps.push(name)
    }
    mkdirSync(this.opts.gateDir, { recursive: true, mode: 0o711 })
    chmodSync(this.opts.gateDir, 0o711)
  }

  /** Materialises `commit`; with `applySnapshot` (the baseline) protected paths are set to base. */
  async prepare(commit: string, opts: { applySnapshot?: boolean; removeFirst?: string[] } = {}): Promise<PreparedCheckout> {
    const timings: Record<string, number> = {}
    let t = Date.now()
    const lap = (name: string): void => {
      timings[name] = Date.now() - t
      t = Date.now()
    }
    const dir = path.join(this.opts.gateDir, 'checkout')
    const home = path.join(this.opts.gateDir, 'home')
    const tmp = path.join(this.opts.gateDir, 'tmp')
    for (const d of [dir, home, tmp]) rmSync(d, { recursive: true, force: true })
    lap('clean')
    mkdirSync(dir, { mode: 0o755 })
    const env = { GIT_INDEX_FILE: path.join(this.repo, 'index') }
    const { gitEnv } = await import('../git/git.js')
    await git(['--git-dir', this.repo, '--work-tree', dir, 'read-tree', '--reset', '-u', commit], {
      cwd: this.opts.privateDir,
      env: { ...gitEnv(), ...env }
    })
    lap('checkout')
    const tree = await listTree(this.repo, commit)
    let mismatches = findTampering(dir, this.opts.snapshot, tree.keys())
    if (opts.applySnapshot && mismatches.length) {
      revertTampering(dir, this.opts.snapshot, mismatches)
      mismatches = findTampering(dir, this.opts.snapshot, tree.keys())
    }
    lap('verify')
    for (const rel of opts.removeFirst ?? []) rmSync(path.join(dir, rel), { force: true, recursive: true })
    for (const name of this.deps) rmSync(path.join(dir, name), { recursive: true, force: true })
    for (const d of [home, tmp]) mkdirSync(d, { mode: 0o700 })
    const user = this.opts.user
    if (user) {
      execFileSync('chown', ['-hR', `${user.uid}:${user.gid}`, dir, home, tmp])
      this.lock(dir, user)
    }
    lap('ownership')
    for (const name of this.deps) {
      const src = path.join(this.pristine, name)
      const dest = path.join(dir, name)
      if (user && !this.opts.writableDeps) {
        cp(['-al', src, dest])
      } else {
        cp(['-a', '--reflink=auto', src, dest])
        if (user) execFileSync('chown', ['-hR', `${user.uid}:${user.gid}`, dest])
      }
      if (user && !this.opts.writableDeps) {
        chownSync(dest, 0, 0)
        chmodSync(dest, 0o755)
      }
    }
    lap('dependencies')
    return { dir, home, tmp, mismatches, timings }
  }

  /**
   * Protected files root-owned and read-only; their directories (and the checkout root) root-owned
   * and sticky, so the gate user can add files but not replace, rename or delete protected ones.
   */
  private lock(dir: string, _user: AgentUser): void {
    const dirs = new Set<string>([dir])
    for (const rel of this.opts.snapshot.entries.keys()) {
      const file = path.join(dir, rel)
      if (!existsSync(file)) continue
      chownSync(file, 0, 0)
      chmodSync(file, 0o444)
      let parent = path.dirname(file)
      while (parent.startsWith(dir) && !dirs.has(parent)) {
        dirs.add(parent)
        parent = path.dirname(parent)
      }
    }
    for (const d of dirs) {
      chownSync(d, 0, 0)
      chmodSync(d, 0o1777)
    }
  }
}
