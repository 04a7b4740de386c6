import type { FolderRecord } from './folder-record.js'

/**
 * What the gate's clean checkout is known to hold, which decides how the next commit is brought in
 * and what a gate run left is put back:
 * - `none`: nothing checked out (or a restore failed): the next checkout is made afresh.
 * - `exact`: exactly the commit its index records and nothing untracked besides the dependency
 *   copies, its folders trusted to show what changes: the next commit is checked out path by path.
 *   `settled` is how the background restore left the folders: the next checkout checks them again,
 *   so what a process of the gate user changed after the restore (a job it scheduled, say) is put
 *   back too.
 * - `touched`: as `exact`, but loopgate changed paths since the checkout (kept in the checkout's
 *   touched list): the folders are still trusted, the index no longer matches until they are put back.
 * - `ran`: code under test ran in the checkout; `record` holds its folders as they were right before
 *   (null when they were not trusted): a restore puts back only what changed in them.
 * - `untrusted`: checked out, but the folders cannot show what changed (a whole-tree `checkout -f`
 *   may rewrite files they would not show, or the gate user is not the gate's own): the next
 *   checkout cleans and checks out the whole tree.
 */
export type CheckoutState =
  | { kind: 'none' }
  | { kind: 'exact'; settled: FolderRecord | null }
  | { kind: 'touched' }
  | { kind: 'ran'; record: FolderRecord | null }
  | { kind: 'untrusted' }

/** Whether the folders of a checkout in this state show what code run in it changes. */
export function foldersTrusted(state: CheckoutState): boolean {
  return state.kind === 'exact' || state.kind === 'touched'
}
