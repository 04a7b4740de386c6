/** The branches a loop owns on the remote. */

/** Verified work: `loopgate/<loop-id>` (a dependency upgrade adds its own suffix). */
export function workBranchName(loopId: string): string {
  return `loopgate/${loopId}`
}

/** Unfinished work after an escalation, a cap or a cancellation: `loopgate/<loop-id>-wip`. */
export function wipBranchName(loopId: string): string {
  return `loopgate/${loopId}-wip`
}
