import path from 'node:path'
import { git } from '../git/git.js'
import { changedInWorkTree } from '../git/status.js'
import type { CallGuard, GuardReport } from '../loop/types.js'
import { describeTampering, findTampering, revertTampering } from './compare.js'
import type { BaseSnapshot } from './snapshot.js'

export interface TamperGuardOptions {
  workspace: string
  snapshot: BaseSnapshot
}

function zlist(text: string): string[] {
  return text.split('\0').filter(Boolean)
}

/**
 * After every agent call: any change to a protected path against the base in the working tree —
 * modified, added, deleted, renamed, mode, symlink, special file — is reverted to the base content
 * and reported as tampering (two tampering iterations stop the run). The index and history are
 * loopgate's own (the agent works in a copy of the repository), so the working tree is the whole
 * of what the agent can hand in.
 */
export class TamperGuard implements CallGuard {
  /** The paths the last restore wrote (the agent user gets them back before the next call). */
  restored: string[] = []
  /** Work on loopgate's index that must end before the guard uses it (see waitFor). */
  private pending: Promise<void> = Promise.resolve()

  constructor(private readonly opts: TamperGuardOptions) {}

  /** The guard's next look at the work tree waits for `work` (a refresh of loopgate's index). */
  waitFor(work: Promise<void>): void {
    this.pending = work
  }

  /** Resolves once no work the guard waits for is running. */
  idle(): Promise<void> {
    return this.pending
  }

  private git(args: string[], okCodes?: number[]) {
    return git(args, { cwd: this.opts.workspace, okCodes })
  }

  /**
   * The protected paths' current state vs base. The base's protected paths are always compared
   * byte for byte; other candidates (a protected path the base lacks) are every tracked and
   * untracked path (`full`, once at setup), or, once the index holds the base's protected paths
   * and nothing else protected, the paths `git status` reports changed.
   */
  async check(full = true, listed?: Promise<string[]>): Promise<{ found: ReturnType<typeof findTampering>; changed?: string[] }> {
    await this.pending
    if (!full) {
      const changed = await changedInWorkTree(this.opts.workspace)
      return { found: findTampering(this.opts.workspace, this.opts.snapshot, changed), changed }
    }
    return { found: findTampering(this.opts.workspace, this.opts.snapshot, await (listed ?? workTreePaths(this.opts.workspace))) }
  }

  /** Puts the base content back where it differs; returns what was found. */
  async restore(full = true, listed?: Promise<string[]>): Promise<{ found: ReturnType<typeof findTampering>; changed?: string[] }> {
    const result = await this.check(full, listed)
    this.restored = result.found.map((t) => t.path)
    if (result.found.length) {
      revertTampering(this.opts.workspace, this.opts.snapshot, result.found)
      const specs = result.found.map((t) => `:(literal)${t.path}`)
      const all = await this.git(['add', '-A', '--', ...specs], [128])
      if (all.exitCode === 128) for (const spec of specs) await this.git(['add', '-A', '--', spec], [128])
    }
    return result
  }

  async afterCall(): Promise<GuardReport> {
    // Setup's full restore left the index with exactly the base's protected paths. The status it
    // took is handed on: loopgate's commit stages those paths without a second scan.
    const { found, changed } = await this.restore(false)
    if (found.length === 0) return { rejected: [], tampered: false, changedPaths: changed }
    const base = this.opts.snapshot.commit.slice(0, 7)
    return {
      rejected: [`rejected: protected files changed: ${describeTampering(found)}. They were restored from the base (${base}).`],
      tampered: true,
      notes: [`protected paths restored from ${base}: ${found.map((t) => t.path).join(', ')}`.slice(0, 2000)],
      changedPaths: changed
    }
  }
}

/**
 * Every tracked and untracked path of the work tree: the full check's candidates. A listing taken
 * earlier may stand in for the check's own while nothing has written the work tree since.
 */
export async function workTreePaths(workspace: string): Promise<string[]> {
  const list = (args: string[]) => git(['ls-files', '-z', ...args], { cwd: workspace }).then((r) => zlist(r.stdout))
  const [tracked, untracked] = await Promise.all([list([]), list(['--others', '--exclude-standard'])])
  return [...tracked, ...untracked]
}

export function relativeTo(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/')
}
