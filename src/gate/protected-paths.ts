import picomatch from 'picomatch'
import { manifestKind, type ManifestKind } from './manifest-keys.js'

/** Folders never treated as project files (dependencies, VCS metadata). */
const NEVER = /(?:^|\/)(?:\.git|node_modules|\.venv|venv)(?:\/|$)/

/**
 * The protected-paths list: glob patterns with `!pattern` exclusions. package.json and
 * pyproject.toml match as manifests, protected by their test-relevant keys only.
 */
export class ProtectedPaths {
  private readonly include: (p: string) => boolean
  private readonly exclude: (p: string) => boolean

  constructor(readonly patterns: string[]) {
    const inc = patterns.filter((p) => !p.startsWith('!'))
    const exc = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1))
    this.include = inc.length ? picomatch(inc, { dot: true }) : () => false
    this.exclude = exc.length ? picomatch(exc, { dot: true }) : () => false
  }

  /** How a path is protected: whole file, by manifest keys, or not at all. */
  kind(file: string): 'file' | ManifestKind | null {
    if (NEVER.test(file) || this.exclude(file)) return null
    const manifest = manifestKind(file)
    if (manifest) return this.include(file) || this.include(file.split('/').pop() ?? '') ? manifest : null
    return this.include(file) ? 'file' : null
  }

  matches(file: string): boolean {
    return this.kind(file) !== null
  }
}
