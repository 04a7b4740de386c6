import { rmSync } from 'node:fs'
import path from 'node:path'
import { git } from '../git/git.js'
import { GitHardening, removeGitSymlinks, unlinkSymlinkedPath } from '../isolation/hygiene.js'
import type { CallGuard, GuardReport } from '../loop/types.js'
import { describeTampering, findTampering, revertTampering } from './compare.js'
import type { BaseSnapshot } from './snapshot.js'

export interface TamperGuardOptions {
  workspace: string
  snapshot: BaseSnapshot
  hardening: GitHardening
  /** Files loopgate itself writes in the workspace (progress, features): never through a symlink. */
  ownFiles: string[]
}

function zlist(text: string): string[] {
  return text.split('\0').filter(Boolean)
}

/**
 * After every agent call: any change to a protected path against the base — committed, staged,
 * unstaged, untracked, deleted, renamed, mode, symlink — is reverted to the base content and
 * reported as tampering (two tampering iterations stop the run).
 */
export class TamperGuard implements CallGuard {
  private headBefore: string | null = null
  private gitDir: string | null = null

  constructor(private readonly opts: TamperGuardOptions) {}

  private git(args: string[], okCodes?: number[]) {
    return git(args, { cwd: this.opts.workspace, okCodes, config: this.opts.hardening.config() })
  }

  async beforeCall(): Promise<void> {
    this.headBefore = (await this.git(['rev-parse', 'HEAD'])).stdout.trim()
  }

  /** The protected paths' current state vs base; also used once at setup (not counted). */
  async check(): Promise<{ found: ReturnType<typeof findTampering>; committed: string[] }> {
    const ws = this.opts.workspace
    const notes: string[] = []
    this.gitDir ??= (await this.git(['rev-parse', '--absolute-git-dir'])).stdout.trim()
    const gitDir = this.gitDir
    notes.push(...removeGitSymlinks(gitDir))
    // Every agent process is gone by now: a lock left behind would only block loopgate's commit.
    for (const lock of ['index.lock', 'HEAD.lock', 'config.lock', 'packed-refs.lock']) rmSync(path.join(gitDir, lock), { force: true })
    for (const own of this.opts.ownFiles) unlinkSymlinkedPath(ws, own)
    await this.opts.hardening.refresh()

    const paths = this.opts.snapshot.paths
    // One pass over the index: tag (skip-worktree / assume-unchanged), mode, oid, path.
    const index = zlist((await this.git(['ls-files', '-v', '-s', '-z'])).stdout).map((rec) => {
      const tab = rec.indexOf('\t')
      const [tag, mode, oid] = rec.slice(0, tab).split(' ')
      return { tag, mode, oid, file: rec.slice(tab + 1) }
    })
    // Flags that would hide an index entry from `git add -A`.
    const flagged = index.filter((e) => /^[a-zS]$/.test(e.tag) && paths.matches(e.file)).map((e) => e.file)
    if (flagged.length) {
      await this.git(['update-index', '--no-skip-worktree', '--', ...flagged])
      await this.git(['update-index', '--no-assume-unchanged', '--', ...flagged])
    }
    const untracked = zlist((await this.git(['ls-files', '-z', '--others', '--exclude-standard'])).stdout)
    const found = findTampering(ws, this.opts.snapshot, [...index.map((e) => e.file), ...untracked])
    const seen = new Set(found.map((t) => t.path))
    for (const f of flagged) if (!seen.has(f)) found.push({ path: f, change: 'hidden from git (skip-worktree / assume-unchanged)' })
    // Staged content that differs from the base while the working tree matches it.
    for (const e of index) {
      const base = this.opts.snapshot.entries.get(e.file)
      if (!base || base.kind !== 'file' || seen.has(e.file) || flagged.includes(e.file)) continue
      if (e.oid !== base.oid || e.mode !== base.mode) found.push({ path: e.file, change: 'staged change' })
    }
    let committed: string[] = []
    if (this.headBefore) {
      const head = (await this.git(['rev-parse', 'HEAD'])).stdout.trim()
      if (head !== this.headBefore) {
        committed = zlist((await this.git(['diff', '--name-only', '-z', '--no-renames', this.headBefore, head])).stdout).filter(
          (f) => paths.matches(f) && !found.some((t) => t.path === f)
        )
      }
    }
    return { found, committed }
  }

  /** Puts the base content back where it differs; returns what was found. */
  async restore(): Promise<{ found: ReturnType<typeof findTampering>; committed: string[] }> {
    const result = await this.check()
    if (result.found.length) {
      revertTampering(this.opts.workspace, this.opts.snapshot, result.found)
      const specs = result.found.map((t) => `:(literal)${t.path}`)
      const all = await this.git(['add', '-A', '--', ...specs], [128])
      if (all.exitCode === 128) for (const spec of specs) await this.git(['add', '-A', '--', spec], [128])
    }
    return result
  }

  async afterCall(): Promise<GuardReport> {
    const { found, committed } = await this.restore()
    if (found.length === 0 && committed.length === 0) return { rejected: [], tampered: false }
    const all = [...found, ...committed.map((p) => ({ path: p, change: 'committed' }))]
    const base = this.opts.snapshot.commit.slice(0, 7)
    return {
      rejected: [`rejected: protected files changed: ${describeTampering(all)}. They were restored from the base (${base}).`],
      tampered: true,
      notes: [`protected paths restored from ${base}: ${all.map((t) => t.path).join(', ')}`.slice(0, 2000)]
    }
  }
}

export function relativeTo(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/')
}
