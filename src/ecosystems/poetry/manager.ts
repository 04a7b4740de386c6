import { readAgentText, readTreeEntry, writeTreeFile } from '../../fs/tree.js'
import { indexReleaseNotes } from '../pip/manager.js'
import { PEP440 } from '../pip/pep440.js'
import { fileHash, PYPROJECT, readPyproject } from '../pyproject/document.js'
import { resolvePythonTool, runPythonTool, toolTail } from '../pyproject/python-tool.js'
import { lockedOutdated } from '../pyproject/locked-outdated.js'
import type { TomlTable } from '../pyproject/toml-strings.js'
import type { BumpResult, CandidateInWorkspace, OutdatedReport, PackageManager } from '../types.js'
import { poetryClauses } from './constraints.js'
import { lockedVersions, poetryDeclarations, poetrySource, widenPoetryDeclarations, type PoetryDeclaration } from './project.js'

export const LOCKFILE = 'poetry.lock'
const MAX_LOCK_BYTES = 32 * 1024 * 1024

/** Poetry never prompts, creates no virtualenv for a lock, and asks no keyring for credentials. */
const POETRY_ENV = { POETRY_NO_INTERACTION: '1', POETRY_VIRTUALENVS_CREATE: 'false', PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' }

/** pip pointed at the index Poetry resolves from, with the credentials Poetry would send (`POETRY_HTTP_BASIC_<SOURCE>_*`). */
function sourceEnv(doc: TomlTable, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const source = poetrySource(doc)
  if (!source) return env
  const url = new URL(source.url)
  const id = source.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')
  const user = env[`POETRY_HTTP_BASIC_${id}_USERNAME`]
  const password = env[`POETRY_HTTP_BASIC_${id}_PASSWORD`]
  if (user) url.username = encodeURIComponent(user)
  if (password) url.password = encodeURIComponent(password)
  return { ...env, PIP_INDEX_URL: url.href, PIP_EXTRA_INDEX_URL: '' }
}

/** Declarations by package. */
function byPackage(decls: readonly PoetryDeclaration[]): Map<string, PoetryDeclaration[]> {
  const out = new Map<string, PoetryDeclaration[]>()
  for (const d of decls) if (poetryClauses(d.constraint) !== null) out.set(d.key, [...(out.get(d.key) ?? []), d])
  return out
}

/**
 * Poetry projects (`[tool.poetry]`, poetry.lock): versions from the index Poetry resolves from
 * (its default `[[tool.poetry.source]]`, else pip's configured index), the current version from
 * poetry.lock. The bump widens a constraint that excludes the new version in place and has
 * Poetry itself rewrite the lock: `poetry lock --no-update` after a widening (only the changed
 * requirement moves), `poetry update --lock <name>` when the constraint admits it already.
 */
export class PoetryPackageManager implements PackageManager {
  readonly name = 'poetry'
  readonly bumpFiles = [PYPROJECT, LOCKFILE]
  readonly versions = PEP440

  detect(workspace: string): boolean {
    const file = readPyproject(workspace)
    if (!file) return false
    return readTreeEntry(workspace, LOCKFILE, MAX_LOCK_BYTES).kind === 'file' || poetryDeclarations(file.doc).length > 0
  }

  lockfileHash(workspace: string): string {
    return fileHash(workspace, LOCKFILE)
  }

  private tool(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
    const because = readTreeEntry(workspace, LOCKFILE, MAX_LOCK_BYTES).kind === 'file' ? 'it has a poetry.lock' : 'its pyproject.toml has [tool.poetry]'
    return resolvePythonTool({ name: 'poetry', because: `it is a Poetry project (${because})`, env, signal })
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    await this.tool(workspace, env, signal)
    const file = readPyproject(workspace)
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`)
    const locked = lockedVersions(readAgentText(workspace, LOCKFILE, MAX_LOCK_BYTES))
    const packages = [...byPackage(poetryDeclarations(file.doc)).values()].map(([d]) => ({
      name: d.name,
      type: d.type,
      locked: locked.get(d.key),
      clauses: poetryClauses(d.constraint),
      written: d.constraint
    }))
    return lockedOutdated(packages, sourceEnv(file.doc, env), signal)
  }

  async bump({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<BumpResult> {
    await this.tool(workspace, env, signal)
    const file = readPyproject(workspace)
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` }
    const key = poetryDeclarations(file.doc).find((d) => d.name === candidate.name)?.key
    if (!key) return { ok: false, message: `no Poetry dependency table declares ${candidate.name}` }
    const widened = widenPoetryDeclarations({ text: file.text, doc: file.doc, key, to: candidate.to })
    if (typeof widened !== 'string') return { ok: false, message: widened.message }
    if (widened !== file.text) writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(widened, 'utf8'), executable: file.executable })
    const args = widened !== file.text ? ['lock', '--no-update'] : ['update', '--lock', candidate.name]
    const r = await runPythonTool({ name: 'poetry', args: [...args, '--no-interaction', '--no-ansi'], cwd: workspace, env: { ...env, ...POETRY_ENV }, signal })
    if (r.exitCode !== 0) return { ok: false, message: `poetry ${args.join(' ')} failed ${toolTail(r)}` }
    const now = lockedVersions(readAgentText(workspace, LOCKFILE, MAX_LOCK_BYTES)).get(key)
    if (now === undefined || PEP440.compare(now, candidate.to) !== 0) {
      return { ok: false, message: `poetry left ${candidate.name} at ${now ?? 'nothing'} in ${LOCKFILE}, not ${candidate.to}` }
    }
    return { ok: true }
  }

  installedCopy(): null {
    return null
  }

  releaseNotes(job: CandidateInWorkspace): Promise<string[]> {
    const file = readPyproject(job.workspace)
    return indexReleaseNotes({ ...job, env: file ? sourceEnv(file.doc, job.env) : job.env })
  }
}
