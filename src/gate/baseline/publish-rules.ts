import { lstatSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { PublishRules } from '../../git/publishable-tree.js'
import type { GitRepository } from '../../git/repository.js'
import { ProtectedPaths } from '../protection/protected-paths.js'
import { findTampering, revertTampering } from './compare.js'
import { BaseSnapshot } from './snapshot.js'

/**
 * The run's publish rules, kept in its root-only run directory before the first agent call, so
 * the post step holds a killed run's last commit to the same rules as every iteration's: the base
 * commit and the resolved protected-path patterns (the snapshot is taken again from the base).
 */

const RECORD = 'publish-rules.json'

/** The rules the publishable tree is held to: a protected path the agent changed goes back to the snapshot's bytes. */
export function publishRulesOf(snapshot: BaseSnapshot): PublishRules {
  return {
    revertProtected: (dir, changed) => {
      const found = findTampering(dir, snapshot, changed)
      if (found.length) revertTampering(dir, snapshot, found)
      return found
    }
  }
}

/** Records the rules in the run directory and returns them. */
export function keepPublishRules(runDir: string, snapshot: BaseSnapshot): PublishRules {
  writeFileSync(path.join(runDir, RECORD), JSON.stringify({ base: snapshot.commit, patterns: snapshot.paths.patterns }), { mode: 0o600 })
  return publishRulesOf(snapshot)
}

/**
 * The rules recorded for this run, their snapshot read from the base in loopgate's git directory
 * (the repository must be held); null when none were recorded (the main step died before the
 * first call). Throws when the base cannot be read: nothing may then be committed.
 */
export async function recordedPublishRules(runDir: string, repository: GitRepository): Promise<PublishRules | null> {
  const file = path.join(runDir, RECORD)
  let text: string
  try {
    if (!lstatSync(file).isFile()) return null
    text = readFileSync(file, 'utf8')
  } catch {
    return null
  }
  const data = JSON.parse(text) as { base?: unknown; patterns?: unknown }
  if (
    typeof data.base !== 'string' ||
    !/^[0-9a-f]{40,64}$/.test(data.base) ||
    !Array.isArray(data.patterns) ||
    !data.patterns.every((p) => typeof p === 'string')
  ) {
    throw new Error(`the publish rules recorded in ${file} are not readable`)
  }
  return publishRulesOf(await BaseSnapshot.take(repository, data.base, { paths: new ProtectedPaths(data.patterns as string[]) }))
}
