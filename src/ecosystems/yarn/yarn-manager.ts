import { readAgentText } from '../../fs/tree.js'
import { MANIFEST, MAX_JSON_BYTES, readJson } from '../node-project.js'
import { declaredManager } from '../package-manager-tool.js'
import { SEMVER } from '../npm/semver.js'
import type { BumpResult, CandidateInWorkspace, OutdatedReport, PackageManager, UpgradeCandidate } from '../types.js'
import { YarnBerryManager } from './berry-manager.js'
import { isBerryLock } from './lockfile.js'
import { LOCKFILE, YarnClassicManager } from './manager.js'

/**
 * A Yarn Berry project: `packageManager` declares yarn 2 or later, or, without a yarn declaration,
 * yarn.lock is a Berry lockfile (`__metadata`).
 */
export function isBerryProject(workspace: string): boolean {
  const declared = declaredManager(readJson(workspace, MANIFEST)?.packageManager)
  if (declared?.name === 'yarn') return !/^[01]\./.test(declared.version)
  return isBerryLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? '')
}

/** Yarn, classic or Berry: each workspace goes to the one its declaration and lockfile name. */
export class YarnPackageManager implements PackageManager {
  readonly name = 'yarn'
  readonly versions = SEMVER
  private readonly classic = new YarnClassicManager()
  private readonly berry = new YarnBerryManager()

  get bumpFiles(): readonly string[] {
    return this.classic.bumpFiles
  }

  private of(workspace: string): PackageManager {
    return isBerryProject(workspace) ? this.berry : this.classic
  }

  detect(workspace: string): boolean {
    return this.of(workspace).detect(workspace)
  }

  declined(workspace: string): string | null {
    return this.of(workspace).declined?.(workspace) ?? null
  }

  lockfileHash(workspace: string): string {
    return this.of(workspace).lockfileHash(workspace)
  }

  outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    return this.of(workspace).outdated(workspace, env, signal)
  }

  bump(job: CandidateInWorkspace): Promise<BumpResult> {
    return this.of(job.workspace).bump(job)
  }

  installedCopy(candidate: UpgradeCandidate): string | null {
    // Both leave the new version in node_modules (Berry only with the node-modules linker it requires).
    return this.classic.installedCopy(candidate)
  }

  releaseNotes(job: CandidateInWorkspace): Promise<string[]> {
    return this.of(job.workspace).releaseNotes(job)
  }
}
