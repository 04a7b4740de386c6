import { manifestKind } from '../ecosystems/registry.js'
import type { GitRepository } from '../git/repository.js'
import type { PullCommits } from './pull-head.js'

/** One package the bot moved: its name and its spec before and after (null: not known). */
export interface BumpedPackage {
  name: string
  from: string | null
  to: string | null
}

const NODE_TABLES = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const

async function fileAt(repository: GitRepository, commit: string, file: string): Promise<string | null> {
  const shown = await repository.run(['show', `${commit}:${file}`], { okCodes: [128] })
  return shown.exitCode === 0 ? shown.stdout : null
}

function nodeTables(text: string | null): Map<string, string> {
  const out = new Map<string, string>()
  let doc: unknown
  try {
    doc = text === null ? {} : JSON.parse(text)
  } catch {
    return out
  }
  for (const table of NODE_TABLES) {
    const entries = (doc as Record<string, unknown> | null)?.[table]
    if (!entries || typeof entries !== 'object') continue
    for (const [name, spec] of Object.entries(entries as Record<string, unknown>)) if (typeof spec === 'string') out.set(name, spec)
  }
  return out
}

/** The packages whose spec a package.json of the bump changed, added or removed. */
export async function manifestBumps(repository: GitRepository, commits: PullCommits, files: readonly string[]): Promise<BumpedPackage[]> {
  const found: BumpedPackage[] = []
  for (const file of files.filter((f) => manifestKind(f) === 'package-json')) {
    const before = nodeTables(await fileAt(repository, commits.baseCommit, file))
    const after = nodeTables(await fileAt(repository, commits.headCommit, file))
    for (const name of new Set([...before.keys(), ...after.keys()])) {
      const from = before.get(name) ?? null
      const to = after.get(name) ?? null
      if (from !== to) found.push({ name, from, to })
    }
  }
  return found
}
