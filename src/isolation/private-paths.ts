import { spawnSync } from 'node:child_process'
import { chmodSync, statSync } from 'node:fs'
import path from 'node:path'

/** Adds ACL entries (`u:<uid>:<perms>` for each uid) to a path; false when ACLs cannot be set there. */
function addAcl(target: string, uids: number[], perms: string): boolean {
  const spec = uids.map((uid) => `u:${uid}:${perms}`).join(',')
  return spawnSync('setfacl', ['-m', spec, target], { stdio: 'ignore' }).status === 0
}

const NO_ACL =
  'ACLs could not be set (setfacl missing or the file system without ACLs): the folders leading to the workspace and the call folders were opened to every user to traverse'

/**
 * Lets these users (and no other) traverse each ancestor of `dir` that others may not: an ACL
 * entry per user, not o+x, so another run's users stay out of this run's folders. Where ACLs
 * cannot be set the ancestor gets o+x, and the note says so.
 */
export function grantTraverse(dir: string, uids: number[], granted: Set<string>): string | null {
  let note: string | null = null
  let current = path.resolve(dir)
  while (current !== path.dirname(current)) {
    const parent = path.dirname(current)
    const mode = statSync(parent).mode
    // An ancestor already granted (the workspace and the run's folders share the temp root) is not set again.
    if ((mode & 0o001) === 0 && !granted.has(parent)) {
      if (addAcl(parent, uids, 'x')) granted.add(parent)
      else {
        chmodSync(parent, (mode & 0o7777) | 0o001)
        note = NO_ACL
      }
    }
    current = parent
  }
  return note
}

/** Removes the run's users' ACL entries again (a later user given the same uid inherits nothing). */
export function revokeAcls(paths: Iterable<string>, uids: number[]): void {
  const spec = uids.map((uid) => `u:${uid}`).join(',')
  for (const p of paths) spawnSync('setfacl', ['-x', spec, p], { stdio: 'ignore' })
}

/** What `dir` gives every other user, it gives these users only (ACL entries); the rest lose it. */
export function keepToUsers(dir: string, uids: number[]): string | null {
  const mode = statSync(dir).mode & 0o7777
  const others = mode & 0o007
  if (others === 0) return null
  const perms = `${others & 4 ? 'r' : '-'}${others & 2 ? 'w' : '-'}${others & 1 ? 'x' : '-'}`
  // The mode first: setfacl then sets the ACL mask to cover the new entries.
  chmodSync(dir, mode & ~0o007)
  if (addAcl(dir, uids, perms)) return null
  chmodSync(dir, mode)
  return NO_ACL
}
