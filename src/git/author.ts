import type { CommitAuthor } from '../settings.js'

/**
 * Outside GitHub (the local CLI, a run without a token): an address no GitHub account can claim,
 * so no one is credited with loopgate's commits.
 */
export const LOCAL_AUTHOR: CommitAuthor = { name: 'loopgate', email: 'loopgate@localhost' }

/** The identity GitHub gives commits made with a workflow's GITHUB_TOKEN. */
export const GITHUB_ACTIONS_AUTHOR: CommitAuthor = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com'
}

/** The no-reply address GitHub attributes to the account `login` with the numeric id `id`. */
export function noreplyAuthor(login: string, id: number): CommitAuthor {
  return { name: login, email: `${id}+${login}@users.noreply.github.com` }
}

/**
 * `Name <email>` as git writes an identity; undefined when it is not one. Angle brackets, newlines
 * and NUL cannot appear in either part (git would reject or rewrite them).
 */
export function parseCommitAuthor(raw: string): CommitAuthor | undefined {
  const m = /^([^<>\n\r\0]*?)\s*<([^<>\s\0]+@[^<>\s\0]+)>$/.exec(raw.trim())
  if (!m || m[1].trim() === '') return undefined
  return { name: m[1].trim(), email: m[2] }
}
