import { readAgentText } from '../../fs/tree.js'
import { NodeLockManager } from '../node-lock-manager.js'
import { lockedByDeclaredRange, MAX_JSON_BYTES, packageJsonWorkspaces, type Json } from '../node-project.js'
import { declaredManager } from '../package-manager-tool.js'
import type { UpgradeCandidate } from '../types.js'
import { isBerryLock, parseYarnLock, yarnLocked } from './lockfile.js'

export const LOCKFILE = 'yarn.lock'

/** Yarn classic (1.x): package.json with yarn.lock v1 (or `packageManager: yarn@1…`), workspaces from package.json. */
export class YarnClassicManager extends NodeLockManager {
  readonly name = 'yarn'
  readonly lockfile = LOCKFILE

  protected workspacePatterns(workspace: string): string[] {
    return packageJsonWorkspaces(workspace)
  }

  protected lockedReader(workspace: string): (dir: string, name: string) => string | null {
    const blocks = parseYarnLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? '')
    return lockedByDeclaredRange(workspace, (name, range) => yarnLocked(blocks, name, range))
  }

  protected installArgs(): string[] {
    return ['install', '--ignore-scripts', '--non-interactive', '--no-progress']
  }

  protected versionsArgs(name: string): string[] {
    return ['info', name, 'versions', '--json', '--non-interactive']
  }

  protected metadataArgs(name: string, version: string): string[] {
    return ['info', `${name}@${version}`, '--json', '--non-interactive']
  }

  protected parseMetadata(stdout: string): Json {
    try {
      const data = (JSON.parse(stdout.trim() || '{}') as Json).data
      return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Json) : {}
    } catch {
      return {}
    }
  }

  /** A Berry lockfile under a Yarn classic declaration: neither tool can take it as it is. */
  protected unsupported(workspace: string, manifest: Json): string | null {
    const declared = declaredManager(manifest.packageManager)
    if (declared?.name === 'yarn' && isBerryLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? '')) {
      return `package.json declares packageManager yarn@${declared.version.slice(0, 40)} (Yarn classic), but yarn.lock is a Yarn Berry lockfile (it has __metadata)`
    }
    return null
  }

  installedCopy(candidate: UpgradeCandidate): string {
    return `node_modules/${candidate.name}`
  }
}
