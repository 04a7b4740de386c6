import type { GitRepository } from '../../git/repository.js'

/**
 * The variables that give a version-from-git build backend (setuptools-scm, and hatch-vcs, which
 * reads its version through setuptools-scm) the version the base commit has, since the gate's
 * checkout has no `.git` to read it from. A value the gate's environment already has is kept.
 */
const VCS_VERSION_VARS = ['SETUPTOOLS_SCM_PRETEND_VERSION'] as const

/** `1.2.3` → `1.2.4`: the next release, as setuptools-scm guesses it for a commit past a tag. */
function nextRelease(version: string): string | null {
  const m = /^(\d+(?:\.\d+)*)$/.exec(version)
  if (!m) return null
  const parts = m[1].split('.')
  parts[parts.length - 1] = String(Number(parts[parts.length - 1]) + 1)
  return parts.join('.')
}

/**
 * The commit's version as setuptools-scm's default scheme writes it: the tag on the commit (`v`
 * dropped); past a tag, the next release's dev version with the commit as local part
 * (`1.2.4.dev3+gabc1234`); with no tag, `0.1.devN+g…` (N commits).
 */
export async function vcsVersion(repository: GitRepository, commit: string): Promise<string> {
  const [hash, described] = await Promise.all([repository.shortId(commit, 7), repository.describeTag(commit, '*[0-9]*')])
  const m = described === null ? null : /^(.+)-(\d+)-g[0-9a-f]+$/.exec(described)
  if (!m) return `0.1.dev${await repository.revListCount(commit)}+g${hash}`
  const tag = m[1].replace(/^v/i, '')
  const distance = Number(m[2])
  if (distance === 0) return tag
  const next = nextRelease(tag)
  return next ? `${next}.dev${distance}+g${hash}` : `${tag}.post${distance}+g${hash}`
}

/** A file that declares a Python package's build, at any depth: only such a build reads its version from git. */
const PYTHON_BUILD_FILE = /(?:^|\/)(?:pyproject\.toml|setup\.py|setup\.cfg)$/

/** Whether a tree holds a Python package's build declaration, so a build backend might ask git for the version. */
export function buildsPythonPackage(paths: Iterable<string>): boolean {
  for (const p of paths) if (PYTHON_BUILD_FILE.test(p)) return true
  return false
}

/** The base commit and the paths of its tree. */
interface VcsBase {
  commit: string
  paths: Iterable<string>
}

/**
 * The gate's environment with the base's version for the version-from-git backends, when the
 * base's tree builds a Python package; any other tree's gate has no backend to read it.
 */
export async function withVcsVersion(env: NodeJS.ProcessEnv, repository: GitRepository, base: VcsBase): Promise<NodeJS.ProcessEnv> {
  if (VCS_VERSION_VARS.every((name) => env[name] !== undefined) || !buildsPythonPackage(base.paths)) return env
  const version = await vcsVersion(repository, base.commit).catch(() => null)
  if (!version) return env
  return { ...Object.fromEntries(VCS_VERSION_VARS.map((name) => [name, version])), ...env }
}
