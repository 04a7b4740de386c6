/**
 * A command agent the shell could not execute: exit 127 (not found) or 126 (not executable), with
 * bash's own message about the command's first word. A later word that fails (`claude … && ./post.sh`)
 * is no such case: something ran first and may have spent.
 */

const SHELL_REFUSAL = /^\/bin\/bash: line 1: (.+?): (command not found|No such file or directory|Permission denied|Is a directory|cannot execute[^\n]*)$/m

/** The first word the shell runs: leading `NAME=value` assignments skipped, simple quotes removed. */
function firstWord(command: string): string | undefined {
  const words = command.trim().split(/\s+/)
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w))
  return word?.replace(/^(['"])(.*)\1$/, '$2')
}

/** Why the shell could not run `command`, or null when it ran (whatever it then did). */
export function cannotRun(command: string, exitCode: number | null, stderr: string): string | null {
  if (exitCode !== 126 && exitCode !== 127) return null
  const refusal = SHELL_REFUSAL.exec(stderr)
  if (!refusal || refusal[1] !== firstWord(command)) return null
  return `${refusal[1]}: ${refusal[2]}`
}
