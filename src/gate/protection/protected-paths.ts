import picomatch from 'picomatch'
import { ROOT_DEPENDENCY_DIRS } from '../../ecosystems/registry.js'
import { manifestKind, type ManifestKind } from '../dependencies/manifest-keys.js'

/** Folders never treated as project files (dependencies, VCS metadata). */
const NEVER = new RegExp(`(?:^|/)(?:${['.git', ...ROOT_DEPENDENCY_DIRS].map((d) => d.replace(/[.]/g, '\\.')).join('|')})(?:/|$)`)

/**
 * C0 and C1 controls, DEL, and U+FFFD (a name that is not valid UTF-8 as git gives it): globs do
 * not see through such names (`*` stops at a newline), so a path holding one is always protected.
 */
const UNMATCHABLE = /[\u0000-\u001f\u007f-\u009f\ufffd]/

/** Patterns whose last segment names a manifest: those protect it by its keys, not as a whole. */
const MANIFEST_PATTERN = /(?:^|\/)(?:package\.json|pyproject\.toml)$/

const ANY_DIR = /^\*\*\/([\w.-]+)\/\*\*$/
const ANY_DEPTH = /^\*\*\/([^/]+)$/

function union(res: RegExp[]): RegExp | null {
  return res.length ? new RegExp(res.map((r) => r.source).join('|')) : null
}

/**
 * A list of globs as at most three regular expressions, one test each however long the list: the
 * directory-at-any-depth patterns as one path-segment test, the file-name-at-any-depth patterns
 * against the last segment only, the rest against the whole path (as picomatch with `dot: true`).
 */
function compile(patterns: string[]): (p: string) => boolean {
  const dirs: string[] = []
  const names: RegExp[] = []
  const whole: RegExp[] = []
  for (const p of patterns) {
    const dir = ANY_DIR.exec(p)
    const name = ANY_DEPTH.exec(p)
    if (dir) dirs.push(dir[1].replace(/\./g, '\\.'))
    else if (name) names.push(picomatch.makeRe(name[1], { dot: true }))
    else whole.push(picomatch.makeRe(p, { dot: true }))
  }
  const dirRe = dirs.length ? new RegExp(`(?:^|/)(?:${dirs.join('|')})(?:/|$)`) : null
  const nameRe = union(names)
  const wholeRe = union(whole)
  return (p) => Boolean(dirRe?.test(p) || nameRe?.test(p.slice(p.lastIndexOf('/') + 1)) || wholeRe?.test(p))
}

/**
 * The protected-paths list: glob patterns with `!pattern` exclusions. package.json and
 * pyproject.toml match as manifests (protected except for an allow-list of keys) unless another
 * pattern protects them whole.
 */
export class ProtectedPaths {
  private readonly files: (p: string) => boolean
  private readonly manifests: (p: string) => boolean
  private readonly exclude: (p: string) => boolean

  constructor(readonly patterns: readonly string[]) {
    const inc = patterns.filter((p) => !p.startsWith('!'))
    this.files = compile(inc.filter((p) => !MANIFEST_PATTERN.test(p)))
    this.manifests = compile(inc.filter((p) => MANIFEST_PATTERN.test(p)))
    this.exclude = compile(patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1)))
  }

  /** Each path asked about, with its answer: the base's tree and the work tree share most paths. */
  private readonly known = new Map<string, 'file' | ManifestKind | null>()

  /** How a path is protected: whole file, by manifest keys, or not at all. */
  kind(file: string): 'file' | ManifestKind | null {
    let kind = this.known.get(file)
    if (kind === undefined) {
      kind = this.match(file)
      this.known.set(file, kind)
    }
    return kind
  }

  private match(file: string): 'file' | ManifestKind | null {
    if (UNMATCHABLE.test(file)) return 'file'
    if (NEVER.test(file) || this.exclude(file)) return null
    if (this.files(file)) return 'file'
    const manifest = manifestKind(file)
    if (manifest && (this.manifests(file) || this.manifests(file.slice(file.lastIndexOf('/') + 1)))) return manifest
    return null
  }

  matches(file: string): boolean {
    return this.kind(file) !== null
  }
}
