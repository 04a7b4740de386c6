import { ConfigError } from '../errors.js'

/**
 * The stop an error before the loop means, the same for the action and the CLI: a bad input or a
 * workspace that is not a repository is `config-error`; anything else is loopgate's own failure.
 */
export function configErrorFrom(err: unknown, workspace?: string): string | null {
  if (err instanceof ConfigError) return err.message
  const message = err instanceof Error ? err.message : String(err)
  if (/not a git repository|needed a single revision|unknown revision/i.test(message)) {
    return `the workspace ${workspace ?? ''} is not a git repository with a commit (${message.trim()})`
  }
  return null
}
