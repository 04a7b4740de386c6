import { readAgentText, readTreeEntry, writeTreeFile } from '../../fs/tree.js'
import { indexReleaseNotes } from '../pip/manager.js'
import { PEP440 } from '../pip/pep440.js'
import { applyEdits, declarations, fileHash, PYPROJECT, readPyproject, wideningEdits, type Declaration } from '../pyproject/document.js'
import { resolvePythonTool, runPythonTool, toolTail } from '../pyproject/python-tool.js'
import { lockedOutdated } from '../pyproject/locked-outdated.js'
import type { TomlTable } from '../pyproject/toml-strings.js'
import type { BumpResult, CandidateInWorkspace, OutdatedReport, PackageManager } from '../types.js'
import { uvLockedVersions } from './lockfile.js'

export const LOCKFILE = 'uv.lock'
const MAX_LOCK_BYTES = 32 * 1024 * 1024

const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date)

/** Whether pyproject.toml has a `[tool.uv]` table. */
function declaresUv(doc: TomlTable): boolean {
  return isTable(doc.tool) && isTable(doc.tool.uv)
}

/** pip pointed at the index uv resolves from: the default `[[tool.uv.index]]`, else `UV_DEFAULT_INDEX`/`UV_INDEX_URL`, else pip's own. */
export function uvIndexEnv(doc: TomlTable, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const uv = isTable(doc.tool) && isTable(doc.tool.uv) ? doc.tool.uv : {}
  const indexes = Array.isArray(uv.index) ? uv.index.filter(isTable) : []
  const declared = indexes.find((i) => i.default === true) ?? indexes.find((i) => i.explicit !== true)
  const url = typeof declared?.url === 'string' ? declared.url : (env.UV_DEFAULT_INDEX ?? env.UV_INDEX_URL)
  return url ? { ...env, PIP_INDEX_URL: url, PIP_EXTRA_INDEX_URL: '' } : env
}

/**
 * uv projects (uv.lock, or `[tool.uv]` in pyproject.toml): the PEP 621 / PEP 735 requirements,
 * the current version from uv.lock, versions from the index uv resolves from. The bump widens a
 * requirement that excludes the new version in place and has uv itself relock that one package
 * (`uv lock --upgrade-package name==version`). Without a uv binary the run stops before any
 * spend, naming uv: pip is never used instead.
 */
export class UvPackageManager implements PackageManager {
  readonly name = 'uv'
  readonly bumpFiles = [PYPROJECT, LOCKFILE]
  readonly versions = PEP440

  detect(workspace: string): boolean {
    const file = readPyproject(workspace)
    if (!file) return false
    return readTreeEntry(workspace, LOCKFILE, MAX_LOCK_BYTES).kind === 'file' || declaresUv(file.doc)
  }

  lockfileHash(workspace: string): string {
    return fileHash(workspace, LOCKFILE)
  }

  private tool(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
    const because = readTreeEntry(workspace, LOCKFILE, MAX_LOCK_BYTES).kind === 'file' ? 'it has a uv.lock' : 'its pyproject.toml has [tool.uv]'
    return resolvePythonTool({ name: 'uv', because: `it is a uv project (${because})`, env, signal })
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    await this.tool(workspace, env, signal)
    const file = readPyproject(workspace)
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`)
    const locked = uvLockedVersions(readAgentText(workspace, LOCKFILE, MAX_LOCK_BYTES))
    const byKey = new Map<string, Declaration[]>()
    for (const d of declarations(file.doc)) if (d.requirement.clauses !== null) byKey.set(d.requirement.key, [...(byKey.get(d.requirement.key) ?? []), d])
    const packages = [...byKey.values()].map(([d]) => ({
      name: d.requirement.name,
      type: d.type,
      locked: locked.get(d.requirement.key),
      clauses: d.requirement.clauses,
      written: d.text
    }))
    return lockedOutdated(packages, uvIndexEnv(file.doc, env), signal)
  }

  async bump({ workspace, candidate, env, signal }: CandidateInWorkspace): Promise<BumpResult> {
    await this.tool(workspace, env, signal)
    const file = readPyproject(workspace)
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` }
    const decls = declarations(file.doc)
    const key = decls.find((d) => d.requirement.name === candidate.name)?.requirement.key
    if (!key) return { ok: false, message: `no requirement of ${PYPROJECT} names ${candidate.name}` }
    const edits = wideningEdits(decls, key, candidate.to)
    if (typeof edits === 'string') return { ok: false, message: edits }
    if (edits.length > 0) {
      const text = applyEdits(file.text, file.doc, edits)
      if (text === null) return { ok: false, message: `${PYPROJECT}: the requirements of ${candidate.name} cannot be rewritten in place` }
      writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(text, 'utf8'), executable: file.executable })
    }
    const args = ['lock', '--upgrade-package', `${candidate.name}==${candidate.to}`, '--no-progress']
    const r = await runPythonTool({ name: 'uv', args, cwd: workspace, env, signal })
    if (r.exitCode !== 0) return { ok: false, message: `uv ${args.join(' ')} failed ${toolTail(r)}` }
    const now = uvLockedVersions(readAgentText(workspace, LOCKFILE, MAX_LOCK_BYTES)).get(key)
    if (now === undefined || PEP440.compare(now, candidate.to) !== 0)
      return { ok: false, message: `uv left ${candidate.name} at ${now ?? 'nothing'} in ${LOCKFILE}, not ${candidate.to}` }
    return { ok: true }
  }

  installedCopy(): null {
    return null
  }

  releaseNotes(job: CandidateInWorkspace): Promise<string[]> {
    const file = readPyproject(job.workspace)
    return indexReleaseNotes({ ...job, env: file ? uvIndexEnv(file.doc, job.env) : job.env })
  }
}
