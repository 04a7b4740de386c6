import path from 'node:path'
import { readAgentFile } from '../fs/tree.js'

/** The file an agent writes in its call's output folder to ask for a person. */
const GIVE_UP_FILE_NAME = 'give-up.md'

/** A reason is a few paragraphs; the rest of a longer file is cut. */
const MAX_GIVE_UP_BYTES = 16 * 1024
const MAX_REASON_CHARS = 4000

/** Where a call's agent writes its give-up file: the call's `out/` folder, the one it may write. */
export function giveUpFile(callDir: string): string {
  return path.join(callDir, 'out', GIVE_UP_FILE_NAME)
}

/**
 * The agent's request for a person, read as bounded data (no link followed, a regular file, size
 * capped, never blocking). An empty file counts: it is a request with no reason given.
 */
export function readGiveUp(callDir: string): { reason: string } | undefined {
  const text = readAgentFile(giveUpFile(callDir), MAX_GIVE_UP_BYTES)
  if (text === null) return undefined
  return { reason: text.trim().slice(0, MAX_REASON_CHARS) }
}

/** The lines every prompt carries: how to stop honestly and ask for a person. */
export function giveUpInstructions(file: string): string {
  return [
    '## If the task cannot be done as asked',
    `Do not weaken, skip or special-case the tests to get a pass. Write your reason to ${file} instead`,
    '(what blocks you, and what a person would need to change or tell you) and stop: loopgate then stops',
    'the loop and asks a maintainer. A passing gate in the same iteration still counts.'
  ].join('\n')
}
