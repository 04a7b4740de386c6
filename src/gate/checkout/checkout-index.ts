import { statSync, utimesSync } from 'node:fs'
import path from 'node:path'
import type { AgentUser } from '../../isolation/agent-user.js'
import { replaceFile } from '../../fs/replace-file.js'
import { removeTreeEntry } from '../../fs/tree.js'
import type { TreeChanges } from './checkout-fs.js'
import { fixModes } from './checkout-restore.js'
import type { GateRepository } from '../../git/gate-repository.js'
import { checkoutDirOf, gateIndexOf, gateRepoOf, gateRepositoryOf, type GateLocation } from './first-checkout.js'

/** git on the gate's checkout and its index, with loopgate's own config (see GateRepository). */
export class CheckoutIndex {
  private readonly dir: string
  private readonly repo: string
  readonly git: GateRepository

  constructor(private readonly loc: Pick<GateLocation, 'privateDir' | 'gateDir'> & { user?: AgentUser }) {
    this.dir = checkoutDirOf(loc)
    this.repo = gateRepoOf(loc)
    this.git = gateRepositoryOf(loc)
  }

  /**
   * git reads an entry whose mtime is not older than the index file's as racily clean and compares
   * its content on every read: within the second of a fresh checkout that is every file, so each
   * index write in that second made the next checkout read the whole tree again. With a separate
   * gate user the tracked files are root's, read-only to it: only loopgate writes them in place,
   * and a replaced file has a new inode, which the stat check sees. No same-second rewrite can hide
   * behind an unchanged mtime, so the index's time is set past the files'.
   */
  pastTheFiles(): void {
    if (!this.loc.user) return
    const past = Math.floor(Date.now() / 1000) + 1
    const index = gateIndexOf(this.loc)
    if (statSync(index).mtimeMs / 1000 < past) utimesSync(index, past, past)
  }

  /** See fixModes: the index takes in the new stat of the files whose mode was set. */
  async fixWrittenModes(paths: string[]): Promise<void> {
    const fixed = fixModes(this.dir, paths)
    if (fixed.length) {
      await this.git.updateIndexStat(fixed)
      this.pastTheFiles()
    }
  }

  /** Removes whatever is not tracked, dependency folders left out. */
  async clean(deps: string[]): Promise<void> {
    await this.git.clean(deps)
  }

  /**
   * From the commit the checkout holds exactly to `commit`, path by path: the index takes the new
   * entries (looked up by path, not matched against every entry), what `commit` no longer has is
   * removed with the folders left empty, and only the new and changed paths are written.
   */
  async moveTo(commit: string, changes: TreeChanges): Promise<void> {
    const gone = changes.changes.filter((c) => c.mode === '000000')
    const written = changes.changes.filter((c) => c.mode !== '000000')
    const records = [...gone.map((c) => `0 ${c.oldObject}\t${c.path}`), ...written.map((c) => `${c.mode} ${c.object}\t${c.path}`)]
    if (records.length) await this.git.indexInfo(records)
    // The index just written is as new as the files of a checkout made this second: unless its time
    // is set past them, the next index write reads every one of them as racily clean.
    this.pastTheFiles()
    for (const c of gone) removeTreeEntry(this.dir, c.path)
    for (const folder of [...changes.removedFolders].sort((a, b) => b.split('/').length - a.split('/').length)) removeTreeEntry(this.dir, folder)
    if (written.length) await this.git.checkoutIndex(written.map((c) => c.path))
    // The tree diffs of the same prepare read HEAD while this runs (see replaceFile).
    replaceFile(
      path.join(this.repo, 'HEAD'),
      `${commit}
`
    )
    this.pastTheFiles()
  }
}
