import type { GitRepository } from './repository.js'

/**
 * The objects a commit's history adds to a remote that holds `have`, read from a clean clone as the
 * GitHub Git database API takes them: blobs by content, trees by their entries (children first),
 * commits by tree, parents and message (parents first). What that API cannot express is refused
 * here, before anything is sent.
 */

/** The largest blob GitHub's Git database API takes (100 MB), as git counts a file's bytes. */
const API_BLOB_LIMIT = 100 * 1024 * 1024

/** A tree entry's mode as the API names it. */
type ApiMode = '100644' | '100755' | '040000' | '160000' | '120000'

interface UploadEntry {
  name: string
  mode: ApiMode
  type: 'blob' | 'tree' | 'commit'
  sha: string
}

interface UploadTree {
  sha: string
  entries: UploadEntry[]
}

export interface UploadBlob {
  sha: string
  size: number
  /** A path it has in the history (for messages). */
  path: string
}

interface UploadCommit {
  sha: string
  tree: string
  parents: string[]
  message: string
}

export interface UploadPlan {
  /** Parents before children. */
  commits: UploadCommit[]
  /** Sub-trees before the trees that hold them. */
  trees: UploadTree[]
  blobs: UploadBlob[]
}

/** The history holds something the GitHub API cannot write: nothing was sent. */
export class NotExpressibleError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'NotExpressibleError'
  }
}

const MODES: Record<string, { mode: ApiMode; type: UploadEntry['type'] }> = {
  '100644': { mode: '100644', type: 'blob' },
  '100755': { mode: '100755', type: 'blob' },
  '120000': { mode: '120000', type: 'blob' },
  '40000': { mode: '040000', type: 'tree' },
  '160000': { mode: '160000', type: 'commit' }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

function utf8(bytes: Buffer): string | null {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return null
  }
}

/** A tree object's entries (`<mode> <name>\0<binary id>` each). */
function parseTreeEntries(sha: string, raw: Buffer, idBytes = 20): UploadEntry[] {
  const entries: UploadEntry[] = []
  let pos = 0
  while (pos < raw.length) {
    const space = raw.indexOf(0x20, pos)
    const nul = raw.indexOf(0, space)
    const rawMode = raw.subarray(pos, space).toString('latin1')
    const name = utf8(raw.subarray(space + 1, nul))
    const id = raw.subarray(nul + 1, nul + 1 + idBytes).toString('hex')
    pos = nul + 1 + idBytes
    const kind = MODES[rawMode]
    if (name === null) throw new NotExpressibleError(`tree ${sha} has an entry whose name is not valid UTF-8, which the GitHub API cannot write`)
    if (!kind) throw new NotExpressibleError(`${name} has the mode ${rawMode}, which the GitHub API cannot write`)
    entries.push({ name, ...kind, sha: id })
  }
  return entries
}

/** A commit object's tree, parents and message (its headers otherwise dropped: the API sets them). */
function parseCommitObject(sha: string, raw: Buffer): UploadCommit {
  const split = raw.indexOf('\n\n')
  const headers = raw
    .subarray(0, split < 0 ? raw.length : split)
    .toString('utf8')
    .split('\n')
  const message = utf8(split < 0 ? Buffer.alloc(0) : raw.subarray(split + 2))
  const encoding = headers.find((h) => h.startsWith('encoding '))?.slice(9)
  if (message === null || (encoding && !/^utf-?8$/i.test(encoding))) {
    throw new NotExpressibleError(`the message of commit ${sha} is not UTF-8, which the GitHub API cannot write`)
  }
  const tree = headers.find((h) => h.startsWith('tree '))?.slice(5) ?? ''
  const parents = headers.filter((h) => h.startsWith('parent ')).map((h) => h.slice(7))
  return { sha, tree, parents, message }
}

/** The commit's tree, parents and message, read from `repo`. */
export async function readCommit(repo: GitRepository, sha: string): Promise<UploadCommit> {
  const raw = (await repo.catFileBatch([sha])).get(sha)
  if (!raw) throw new Error(`commit ${sha} is missing`)
  return parseCommitObject(sha, raw)
}

/** `git rev-list <args> <commit> --not <have>`, a line each. */
async function revList(repo: GitRepository, args: string[], range: { commit: string; have: readonly string[] }): Promise<string[]> {
  const out = await repo.run(['rev-list', ...args, range.commit, '--not', ...range.have, '--'])
  return out.stdout.split('\n').filter(Boolean)
}

/** Sub-trees first: a tree is listed after every new tree it holds. */
function childrenFirst(roots: string[], trees: Map<string, UploadTree>): UploadTree[] {
  const ordered: UploadTree[] = []
  const done = new Set<string>()
  const visit = (sha: string): void => {
    const tree = trees.get(sha)
    if (!tree || done.has(sha)) return
    done.add(sha)
    for (const e of tree.entries) if (e.type === 'tree') visit(e.sha)
    ordered.push(tree)
  }
  roots.forEach(visit)
  return ordered
}

function describeTooLarge(blobs: UploadBlob[]): string {
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`
  const listed = blobs.slice(0, 10).map((b) => `${b.path} (${mb(b.size)})`)
  return (
    `${listed.join(', ')}${blobs.length > 10 ? ` and ${blobs.length - 10} more` : ''}: larger than the ${mb(API_BLOB_LIMIT)} ` +
    'the GitHub API takes for one file, so these commits cannot be created through it (sign-commits). Nothing was pushed; ' +
    'keep the file out of the repository (or in Git LFS), or set `sign-commits: false` to push with git.'
  )
}

/**
 * What the remote lacks of `commit`'s history when it holds `have` (commits of this repository):
 * every commit, tree and blob, each checked against what the API can express.
 */
export async function planUpload(repo: GitRepository, commit: string, have: readonly string[]): Promise<UploadPlan> {
  const commitShas = await revList(repo, ['--topo-order', '--reverse'], { commit, have })
  const listed = (await revList(repo, ['--objects'], { commit, have })).map((line) => {
    const space = line.indexOf(' ')
    return space < 0 ? { sha: line, path: '' } : { sha: line.slice(0, space), path: line.slice(space + 1) }
  })
  const isCommit = new Set(commitShas)
  const objects = listed.filter((o) => !isCommit.has(o.sha))
  const query = objects.map((o) => `${o.sha}\n`).join('')
  const check = objects.length ? await repo.run(['cat-file', '--batch-check=%(objectname) %(objecttype) %(objectsize)'], { input: query }) : null
  const kinds = new Map(
    (check?.stdout ?? '')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.split(' ')[0], l.split(' ')] as const)
  )
  const blobs: UploadBlob[] = []
  const treeShas: string[] = []
  for (const o of objects) {
    const [, type, size] = kinds.get(o.sha) ?? []
    if (type === 'blob') blobs.push({ sha: o.sha, size: Number(size), path: o.path })
    else if (type === 'tree') treeShas.push(o.sha)
  }
  const tooLarge = blobs.filter((b) => b.size > API_BLOB_LIMIT)
  if (tooLarge.length) throw new NotExpressibleError(describeTooLarge(tooLarge))
  const raw = await repo.catFileBatch([...treeShas, ...commitShas])
  const idBytes = commit.length / 2
  const trees = new Map(treeShas.map((sha) => [sha, { sha, entries: parseTreeEntries(sha, raw.get(sha) as Buffer, idBytes) }]))
  const commits = commitShas.map((sha) => parseCommitObject(sha, raw.get(sha) as Buffer))
  return {
    commits,
    trees: childrenFirst(
      commits.map((c) => c.tree),
      trees
    ),
    blobs
  }
}
