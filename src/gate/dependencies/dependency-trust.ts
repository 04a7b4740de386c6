import type { GitRepository } from '../../git/repository.js'
import type { GateSettings } from '../../settings.js'
import { describeBump, type BumpOrigin } from './bump-guard.js'
import { runnerTest, type DependencyPolicy } from './dependency-policy.js'
import { DependencyReference } from './dependency-reference.js'
import { npmRegistryHosts } from './lockfile-entries.js'
import { parseManifest } from './manifest-keys.js'
import type { BaseSnapshot } from '../baseline/snapshot.js'

/** Protected files larger than this are not read for the package names they mention. */
const NAMING_FILE_LIMIT = 256 * 1024

interface DependencyTrustOptions {
  /** The workspace's repository, through loopgate's own git directory. */
  repository: GitRepository
  settings: Pick<GateSettings, 'gateCommand' | 'gateSetup' | 'dependencyChanges'> & { workspace: string }
  /** The gate's environment: where the npm registry is configured. */
  gateEnv: NodeJS.ProcessEnv
  dependencyReference?: DependencyReferenceOptions
}

/**
 * The commit whose dependencies the gate trusts; the packages of loopgate's own bump; and, when
 * `commit` is a bump the agent must fix forward, the commit before it (the bump is read from
 * their diff, see bump-guard.ts).
 */
export interface DependencyReferenceOptions {
  commit?: string
  pinned?: string[]
  bump?: BumpOrigin & { before: string }
}

/**
 * The dependencies the gate trusts, taken before the first call: the reference commit's manifests,
 * lockfiles and committed dependency folders, with `dependency-changes` as the policy. The runner
 * test (which packages the judge loads) reads the gate's commands and the base's protected files,
 * once, the first time a registry change needs it.
 */
export async function takeDependencyReference(opts: DependencyTrustOptions, snapshotting: Promise<BaseSnapshot>): Promise<DependencyReference> {
  const { settings, repository } = opts
  const commit = await referenceCommit(repository, opts.dependencyReference?.commit)
  const origin = opts.dependencyReference?.bump
  const bump = origin ? await describeBump(repository, { before: origin.before, bump: commit }, origin) : undefined
  // The reference is read while the base's snapshot is taken; the runner test reads the snapshot,
  // which is there before the reference is returned.
  let snapshot: BaseSnapshot | null = null
  const reference = await DependencyReference.take(repository, commit, (names): DependencyPolicy => {
    let test: ((name: string) => boolean) | null = null
    const texts = (): string[] => {
      if (!snapshot) throw new Error('the runner test needs the base snapshot')
      return [settings.gateCommand, settings.gateSetup ?? '', ...namingTexts(snapshot)]
    }
    return {
      mode: settings.dependencyChanges,
      pinned: opts.dependencyReference?.pinned ?? [],
      bump,
      registryHosts: npmRegistryHosts(opts.gateEnv),
      isRunner: (name) => (test ??= runnerTest(names, texts()))(name)
    }
  })
  snapshot = await snapshotting
  return reference
}

/** The reference commit when the repository has it (a resumed run's start may be gone), else HEAD. */
async function referenceCommit(repository: GitRepository, wanted: string | undefined): Promise<string> {
  const rev = async (spec: string): Promise<string> => (await repository.tryRevParse(`${spec}^{commit}`)) ?? ''
  return (wanted && (await rev(wanted))) || rev('HEAD')
}

/**
 * The base's protected texts that can name a package the judge loads: runner configuration and
 * protected tests whole; of a manifest only its scripts and its pytest table (its dependency tables
 * name every package).
 */
function namingTexts(snapshot: BaseSnapshot): string[] {
  const out: string[] = []
  for (const e of snapshot.entries.values()) {
    if (e.data.length > NAMING_FILE_LIMIT) continue
    if (e.kind === 'file') {
      out.push(e.data.toString('utf8'))
      continue
    }
    const doc = parseManifest(e.kind, e.data.toString('utf8'))
    const tool = doc?.tool as Record<string, unknown> | undefined
    out.push(JSON.stringify(e.kind === 'package-json' ? (doc?.scripts ?? null) : (tool?.pytest ?? null)))
  }
  return out
}
