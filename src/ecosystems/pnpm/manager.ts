import yaml from 'js-yaml'
import { readAgentText } from '../../fs/tree.js'
import type { UpgradeCandidate } from '../types.js'
import { parsePnpmLock, pnpmLocked } from './lockfile.js'
import { NodeLockManager } from '../node-lock-manager.js'
import { MAX_JSON_BYTES, type Json } from '../node-project.js'

export const LOCKFILE = 'pnpm-lock.yaml'
const WORKSPACE_FILE = 'pnpm-workspace.yaml'

/** pnpm: package.json with pnpm-lock.yaml (or `packageManager: pnpm@…`), workspaces from pnpm-workspace.yaml. */
export class PnpmPackageManager extends NodeLockManager {
  readonly name = 'pnpm'
  readonly lockfile = LOCKFILE

  protected workspacePatterns(workspace: string): string[] {
    const text = readAgentText(workspace, WORKSPACE_FILE, MAX_JSON_BYTES)
    if (text === null) return []
    try {
      const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA }) as { packages?: unknown } | null
      return Array.isArray(doc?.packages) ? doc.packages.filter((p): p is string => typeof p === 'string') : []
    } catch {
      return []
    }
  }

  protected lockedReader(workspace: string): (dir: string, name: string) => string | null {
    const doc = parsePnpmLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? '')
    return (dir, name) => pnpmLocked(doc, dir, name)
  }

  protected installArgs(): string[] {
    // Only the lockfile: nothing is fetched into a store or linked into node_modules, no script runs,
    // and no .pnpmfile.cjs hook either (code pnpm would run while it resolves).
    return ['install', '--lockfile-only', '--ignore-scripts', '--ignore-pnpmfile', '--no-frozen-lockfile', '--reporter=append-only']
  }

  protected versionsArgs(name: string): string[] {
    return ['view', name, 'versions', '--json']
  }

  protected metadataArgs(name: string, version: string): string[] {
    return ['view', `${name}@${version}`, 'repository', 'homepage', '--json']
  }

  protected parseMetadata(stdout: string): Json {
    try {
      const data = JSON.parse(stdout.trim() || '{}') as unknown
      return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Json) : {}
    } catch {
      return {}
    }
  }

  protected unsupported(): string | null {
    return null
  }

  installedCopy(_candidate: UpgradeCandidate): null {
    return null
  }
}
