import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { sh } from './repo.js'

/**
 * A scripted agent: call n copies its prompt to prompt-n.txt in `shared` and runs `steps[n-1]`
 * (the last step for every later call); `@SHARED` in a step is the shared folder.
 */
export function scriptedAgent(shared: string, steps: string[]): string {
  const script = [
    'set -e',
    `n=$(( $(cat ${shared}/calls 2>/dev/null | wc -l) + 1 ))`,
    `echo call >> ${shared}/calls`,
    `cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt-$n.txt`,
    'case $n in',
    ...steps.map((s, i) => `  ${i === steps.length - 1 ? '*' : i + 1}) ${s.replaceAll('@SHARED', shared)} ;;`),
    'esac',
    ''
  ].join('\n')
  writeFileSync(path.join(shared, 'agent.sh'), script, { mode: 0o755 })
  return `sh ${shared}/agent.sh`
}

/** The prompt of call `n` of a scripted agent. */
export const promptOf = (shared: string, n: number): string => readFileSync(path.join(shared, `prompt-${n}.txt`), 'utf8')

/** The first commit after `start`: loopgate's bump. */
export const bumpAfter = (ws: string, start: string): string =>
  sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
    .trim()
    .split('\n')[0]
