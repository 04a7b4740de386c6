import path from 'node:path'
import type { AgentUser } from '../isolation/agent-user.js'
import { cacheMountpoints, linkPackageCaches, packageCacheTemplate, type CacheTemplate, type PackageCache } from './toolchain/package-caches.js'

/**
 * The runner's package caches a gate run gets (see gateCaches): with write layers, linked
 * once into a template that each run mounts in its HOME under a layer of its own; without them,
 * linked afresh into each run's HOME (see package-caches.ts).
 */
export class RunCaches {
  /** What the last run was given, and what was left out (with why). */
  last: { given: string[]; skipped: string[] } = { given: [], skipped: [] }
  private template: CacheTemplate | null = null

  constructor(private readonly opts: { caches: PackageCache[]; privateDir: string; user: AgentUser | undefined; layered: boolean }) {}

  /** The mounts a run with its HOME at `home` needs (none when the caches were linked into it). */
  forRun(home: string): { lower: string; target: string }[] {
    const { caches, user } = this.opts
    if (caches.length === 0) return []
    if (!this.opts.layered) {
      const linked = linkPackageCaches(caches, home, user)
      this.last = { given: linked.given, skipped: linked.skipped }
      return []
    }
    this.template ??= packageCacheTemplate(caches, path.join(this.opts.privateDir, 'package-caches', 'home'), user)
    this.last = { given: this.template.given, skipped: this.template.skipped }
    return cacheMountpoints(this.template, home, user)
  }
}
