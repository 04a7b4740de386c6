import { ProtectedPaths } from '../../src/gate/protection/protected-paths.js'
import { BaseSnapshot } from '../../src/gate/baseline/snapshot.js'
import { publishRulesOf } from '../../src/gate/baseline/publish-rules.js'
import type { PublishRules } from '../../src/git/publishable-tree.js'
import { GitRepository } from '../../src/git/repository.js'

/** The publish rules of a run whose base is the repository's HEAD now, with these protected paths. */
export async function publishRulesAt(dir: string, patterns: readonly string[] = []): Promise<PublishRules> {
  const head = await GitRepository.lookup(dir).head()
  return publishRulesOf(await BaseSnapshot.take(GitRepository.plain(dir), head, { paths: new ProtectedPaths(patterns) }))
}
