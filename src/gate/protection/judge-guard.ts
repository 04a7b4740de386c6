import type { GitRepository } from '../../git/repository.js'
import type { CallGuard, GuardReport } from '../../loop/engine-types.js'
import { readAgentText } from '../../fs/tree.js'
import { listTree, readBlobs, type BaseSnapshot } from '../baseline/snapshot.js'
import { judgeImports, resolutionTampering, SOURCE_FILE, type JudgeRefusal } from './judge-loads.js'

const MAX_SOURCE = 512 * 1024
/** The base's source files read for the judge's names it already imports, at most. */
const MAX_BASE_FILES = 5000

interface JudgeGuardOptions {
  workspace: string
  repository: GitRepository
  snapshot: BaseSnapshot
  /** The paths the protected paths' guard saw changed after this call (its status, taken once); else a status of its own. */
  changed?: () => string[] | null
}

/**
 * After every agent call, after the protected paths' guard: what the judge would load from the
 * candidate's tree instead of the base's environment is refused and reverted to loopgate's last
 * commit: package metadata and path files (`*.dist-info`, `*.egg-info`, `*.egg-link`, `*.pth`)
 * anywhere, a new top-level Python module named like one the judge imports, and a project file
 * (not a protected test file) that now imports a test framework or assertion library the base's
 * source never imported.
 */
export class JudgeGuard implements CallGuard {
  /** The paths the last call's check put back (the agent user gets them back before the next call). */
  restored: string[] = []
  private baseNames: Promise<Set<string>> | null = null

  constructor(private readonly opts: JudgeGuardOptions) {}

  async afterCall(): Promise<GuardReport> {
    const { repository, snapshot, workspace } = this.opts
    this.restored = []
    const seen = this.opts.changed?.() ?? (await repository.statusPorcelain())
    const changed = seen.filter((p) => !p.endsWith('/') && snapshot.paths.kind(p) === null)
    if (changed.length === 0) return { rejected: [], tampered: false }
    const base = await listTree(repository, snapshot.commit)
    const refused: JudgeRefusal[] = resolutionTampering(changed, (p) => base.has(p))
    const sources = changed.filter((p) => SOURCE_FILE.test(p) && !refused.some((r) => r.path === p))
    const imports = sources.flatMap((p) => judgeImports(p, readAgentText(workspace, p, MAX_SOURCE) ?? '').map((name) => ({ path: p, name })))
    if (imports.length) {
      const known = await this.namesInBase()
      for (const { path, name } of imports)
        if (!known.has(name))
          refused.push({ path, why: `imports \`${name}\`, the judge's own test framework or assertion library, which the base's source never imports` })
    }
    if (refused.length === 0) return { rejected: [], tampered: false }
    const paths = [...new Set(refused.map((r) => r.path))]
    await repository.revertToHead(paths.map((p) => `:(literal)${p}`))
    this.restored = paths
    const head = (await repository.tryHead())?.slice(0, 7) ?? 'HEAD'
    const text = refused.map((r) => `${r.path} (${r.why})`).join('; ')
    return {
      rejected: [`rejected: the judge loads only what the base chose: ${text}. Put back as in ${head}.`.slice(0, 4000)],
      tampered: true,
      notes: [`reverted to ${head}, the judge would load them: ${paths.join(', ')}`.slice(0, 2000)]
    }
  }

  /** The judge's names the base's own source (outside the protected paths) already imports. */
  private namesInBase(): Promise<Set<string>> {
    this.baseNames ??= (async () => {
      const { repository, snapshot } = this.opts
      const tree = await listTree(repository, snapshot.commit)
      const files = [...tree].filter(([p, e]) => e.mode !== '120000' && SOURCE_FILE.test(p) && snapshot.paths.kind(p) === null).slice(0, MAX_BASE_FILES)
      const blobs = await readBlobs(repository, [...new Set(files.map(([, e]) => e.oid))])
      const names = new Set<string>()
      for (const [p, e] of files) for (const n of judgeImports(p, blobs.get(e.oid)?.subarray(0, MAX_SOURCE).toString('utf8') ?? '')) names.add(n)
      return names
    })()
    return this.baseNames
  }
}
