import type { PublishSettings, TaskSettings } from '../settings.js'

/** The task's words when loopgate writes the prompt itself (the bump is added once it is read). */
export const FIX_DEPENDENCY_PR_PROMPT = "Make the protected gate pass on the dependency bot's pull request, keeping its bump."

type BotPrSettings = Pick<TaskSettings, 'task' | 'dependencyBots'> & Pick<PublishSettings, 'onSuccess' | 'onEscalate' | 'allowUsers'>

/**
 * `task: fix-dependency-pr` works on the bot's pull request itself: verified work is pushed onto its
 * branch (`on-success: push`), a give-up is a comment there (`on-escalate: comment`), `none` staying
 * none; and the bots it acts for may cause the run (they are the workflow_run's actor and sender).
 */
export function forBotPullRequests<S extends BotPrSettings>(settings: S): S {
  if (settings.task !== 'fix-dependency-pr') return settings
  const known = new Set(settings.allowUsers.map((u) => u.toLowerCase()))
  return {
    ...settings,
    onSuccess: settings.onSuccess === 'none' ? 'none' : 'push',
    onEscalate: settings.onEscalate === 'none' ? 'none' : 'comment',
    allowUsers: [...settings.allowUsers, ...settings.dependencyBots.filter((b) => !known.has(b.toLowerCase()))]
  }
}

/** Whether `login` is one of `dependency-bots` (GitHub logins compare without case). */
export function isDependencyBot(login: string, bots: readonly string[]): boolean {
  return bots.some((b) => b.toLowerCase() === login.toLowerCase())
}
