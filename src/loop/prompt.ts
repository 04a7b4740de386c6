/** The agent ends its final message with a line starting with this: a short summary of its change. */
export const SUMMARY_LABEL = 'Summary:'

interface PromptParts {
  task: string
  progress: string
  evidence: string[]
  iteration: number
  maxIterations: number
  progressFile: string
  /** The package of a monorepo the loop works in (relative to the repository's top), when not the top. */
  packageDir?: string
}

/** A list item; the lines after the first (a failure's message and diff) are indented under it. */
function bullet(entry: string): string {
  return `- ${entry.replace(/\n/g, '\n  ')}`
}

/** Each iteration starts with fresh context: the task, the notes so far, and the last evidence. */
export function buildPrompt(parts: PromptParts): string {
  const sections = [
    parts.task.trim(),
    [
      '---',
      `You are in iteration ${parts.iteration} of at most ${parts.maxIterations} of an automated loop (loopgate).`,
      'loopgate, not you, decides when the work is done: it commits your changes and runs the protected tests',
      'from the base branch in a clean checkout. Changes to tests or test configuration are reverted and rejected.',
      ...(parts.packageDir
        ? [
            `You work in the package \`${parts.packageDir}\` of this repository (your current folder); the protected tests run there, with the repository's root install.`
          ]
        : []),
      `Keep short notes for the next iteration in ${parts.progressFile}.`,
      `End your final message with one line \`${SUMMARY_LABEL} <the change, in under 72 characters>\`: it becomes the pull request's title.`
    ].join('\n')
  ]
  if (parts.progress.trim()) {
    sections.push(`## Progress so far (${parts.progressFile})\n${parts.progress.trim()}`)
  }
  if (parts.evidence.length > 0) {
    sections.push(`## Evidence from the last iteration\n${parts.evidence.map(bullet).join('\n')}`)
  }
  return `${sections.join('\n\n')}\n`
}
