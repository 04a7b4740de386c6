import type { PublishSettings } from '../settings.js'
import type { GitHubClient } from './client.js'
import type { RepoRef } from './api-call.js'

/** Permissions that let a user start a loop (`maintain` is reported as `write` by the API, listed for role names). */
const WRITE_PERMISSIONS = new Set(['admin', 'maintain', 'write'])

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

function isBotLogin(login: string): boolean {
  return login.toLowerCase().endsWith('[bot]')
}

/**
 * The accounts that caused this run: the event's sender, the workflow's actor and, for a re-run,
 * the user who re-ran it. Each must be allowed.
 */
export function runActors(env: NodeJS.ProcessEnv, payload: Record<string, unknown>): string[] {
  const sender = (payload.sender as { login?: unknown } | undefined)?.login
  const actors = [typeof sender === 'string' ? sender : undefined, env.GITHUB_ACTOR, env.GITHUB_TRIGGERING_ACTOR]
  const seen = new Map<string, string>()
  for (const a of actors) if (a && a.trim() !== '' && !seen.has(a.toLowerCase())) seen.set(a.toLowerCase(), a.trim())
  return [...seen.values()]
}

/** The actors of a run, the repository they act on, and who the settings let in besides writers. */
interface ActorCheck {
  client: GitHubClient
  repo: RepoRef
  actors: string[]
  settings: Pick<PublishSettings, 'allowUsers' | 'allowBots'>
}

/**
 * Whether these actors may start a loop: each has write permission on the repository (asked
 * through the API), or is listed in `allow-users` (`*`: anyone), or is a bot with `allow-bots`.
 * Returns the line that says why the run is skipped, or null when it may run.
 */
export async function actorRefusal({ client, repo, actors, settings }: ActorCheck): Promise<string | null> {
  if (settings.allowUsers.includes('*')) return null
  if (actors.length === 0) return 'skipped: the run names no actor (GITHUB_ACTOR, the event sender), so no one can be checked for write permission'
  const listed = new Set(settings.allowUsers.map((u) => u.toLowerCase()))
  for (const actor of actors) {
    if (listed.has(actor.toLowerCase())) continue
    if (isBotLogin(actor)) {
      if (settings.allowBots) continue
      return `skipped: the run was caused by the bot ${actor}; set \`allow-bots: true\` (or list it in \`allow-users\`) to let bots start a loop`
    }
    let levels: string[]
    try {
      const answer = await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: actor })
      // role_name names custom and fine-grained roles (`maintain`, `triage`); permission is the legacy level
      levels = [answer.data.role_name, answer.data.permission].filter((l): l is string => typeof l === 'string' && l !== '')
    } catch (err) {
      if (statusOf(err) !== 404) {
        return `skipped: the write permission of ${actor} could not be checked (${err instanceof Error ? err.message : String(err)})`
      }
      levels = ['none']
    }
    if (!levels.some((l) => WRITE_PERMISSIONS.has(l))) {
      return `skipped: ${actor} caused this run without write permission on ${repo.owner}/${repo.repo} (${levels[0] ?? 'none'}); list them in \`allow-users\` to let them start a loop`
    }
  }
  return null
}
