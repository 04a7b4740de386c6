import { execFileSync } from 'node:child_process'
import { componentSchema, sample, type Operation } from './openapi.js'

/**
 * GitHub's Git database endpoints (blobs, trees, commits, refs) over a real bare repository, as
 * the REST description and GitHub's documented behaviour say: a commit created without author,
 * committer or signature by an installation token is GitHub's, signed (a `gpgsig` header here) and
 * verified; a ref update without `force` that is not a fast-forward is refused with 422.
 */

type Json = Record<string, unknown>
export type Answer = { status: number; json: unknown }

export interface GitDatabaseOptions {
  /** The bare repository the objects are stored in (the remote the git path pushes to). */
  gitDir: string
  login: string
  id: number
  installation: boolean
  /** The API URL of a path under the repository. */
  api: (path: string) => string
  web: (path: string) => string
}

/** A commit this server created, as the test reads it. */
export interface CreatedCommit {
  sha: string
  signed: boolean
}

const FAKE_SIGNATURE = ['-----BEGIN PGP SIGNATURE-----', '', 'd2ViLWZsb3cgc2lnbmF0dXJlIChsb2NhbCBzZXJ2ZXIp', '-----END PGP SIGNATURE-----'].join('\n')

const merge = (base: unknown, over: Json): unknown => ({ ...(base as Json), ...over })
const error = (status: number, message: string): Answer => ({
  status,
  json: { message, documentation_url: 'https://docs.github.com/rest/git', status: String(status) }
})

export function gitDatabase(opts: GitDatabaseOptions): { handle: (op: Operation, body: Json) => Answer | null; created: CreatedCommit[] } {
  const created: CreatedCommit[] = []
  const git = (args: string[], input?: Buffer | string): string =>
    execFileSync('git', args, { cwd: opts.gitDir, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 30 }).toString('utf8')
  const tryGit = (args: string[]): string | null => {
    try {
      return git(args).trim()
    } catch {
      return null
    }
  }
  const typeOf = (sha: string): string | null => (/^[0-9a-f]{40}$/.test(sha) ? tryGit(['cat-file', '-t', sha]) : null)
  const identity = { name: opts.login, email: `${opts.id}+${opts.login}@users.noreply.github.com` }

  const commitJson = (sha: string): unknown => {
    const raw = git(['cat-file', 'commit', sha])
    const [head, ...rest] = raw.split('\n\n')
    const lines = head.split('\n')
    const person = (key: string) => {
      const m = new RegExp(`^${key} (.*) <(.*)> (\\d+) [+-]\\d{4}$`, 'm').exec(head)
      return { name: m?.[1] ?? '', email: m?.[2] ?? '', date: new Date(Number(m?.[3] ?? 0) * 1000).toISOString().replace('.000', '') }
    }
    const tree = lines.find((l) => l.startsWith('tree '))?.slice(5) ?? ''
    const parents = lines.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7))
    const signed = head.includes('\ngpgsig ')
    return merge(sample(componentSchema('git-commit')), {
      sha,
      node_id: `C_${sha}`,
      url: opts.api(`git/commits/${sha}`),
      html_url: opts.web(`commit/${sha}`),
      author: person('author'),
      committer: person('committer'),
      message: rest.join('\n\n'),
      tree: { sha: tree, url: opts.api(`git/trees/${tree}`) },
      parents: parents.map((p) => ({ sha: p, url: opts.api(`git/commits/${p}`), html_url: opts.web(`commit/${p}`) })),
      verification: { verified: signed, reason: signed ? 'valid' : 'unsigned', signature: signed ? FAKE_SIGNATURE : null, payload: null, verified_at: null }
    })
  }
  const refJson = (ref: string, sha: string): unknown => ({
    ref,
    node_id: `REF_${ref}`,
    url: opts.api(`git/${ref}`),
    object: { type: 'commit', sha, url: opts.api(`git/commits/${sha}`) }
  })

  function createTree(body: Json): Answer {
    if (body.base_tree !== undefined) return error(422, 'the local server answers only whole trees (no base_tree)')
    const lines: string[] = []
    for (const e of body.tree as Json[]) {
      const path = String(e.path)
      if (path.includes('/') || path === '' || path === '.' || path === '..') return error(422, `tree.path ${path} is not a name in this tree`)
      let sha = e.sha as string | null | undefined
      if (typeof e.content === 'string') sha = git(['hash-object', '-w', '--stdin'], e.content).trim()
      if (sha === null || sha === undefined) continue
      const wanted = e.type === 'tree' ? 'tree' : e.type === 'commit' ? null : 'blob'
      if (wanted && typeOf(sha) !== wanted) return error(422, `GitRPC::BadObjectState: ${sha} is not a ${wanted}`)
      lines.push(`${e.mode} ${e.type} ${sha}\t${path}`)
    }
    const sha = git(['mktree', '--missing', '-z'], lines.map((l) => `${l}\0`).join('')).trim()
    const entries = lines.map((l) => {
      const [meta, path] = l.split('\t')
      const [mode, type, entrySha] = meta.split(' ')
      return { path, mode, type, sha: entrySha, url: opts.api(`git/${type}s/${entrySha}`) }
    })
    return { status: 201, json: { sha, url: opts.api(`git/trees/${sha}`), truncated: false, tree: entries } }
  }

  function createCommit(body: Json): Answer {
    const tree = String(body.tree)
    const parents = ((body.parents as string[] | undefined) ?? []).map(String)
    if (typeOf(tree) !== 'tree') return error(422, 'Tree SHA does not exist')
    if (parents.some((p) => typeOf(p) !== 'commit')) return error(422, 'Parent SHA does not exist or is not a commit object')
    const custom = body.author !== undefined || body.committer !== undefined || body.signature !== undefined
    const author = (body.author as Json | undefined) ?? identity
    const committer = (body.committer as Json | undefined) ?? author
    const when = `${Math.floor(Date.now() / 1000)} +0000`
    // GitHub signs the commits it makes itself: an installation's, with no identity or signature given.
    const signed = opts.installation && !custom
    const header = [
      `tree ${tree}`,
      ...parents.map((p) => `parent ${p}`),
      `author ${String(author.name)} <${String(author.email)}> ${when}`,
      `committer ${signed ? 'GitHub' : String(committer.name)} <${signed ? 'noreply@github.com' : String(committer.email)}> ${when}`,
      ...(signed ? [`gpgsig ${FAKE_SIGNATURE.split('\n').join('\n ')}`] : [])
    ]
    const sha = git(['hash-object', '-t', 'commit', '-w', '--stdin'], `${header.join('\n')}\n\n${String(body.message)}`).trim()
    created.push({ sha, signed })
    return { status: 201, json: commitJson(sha) }
  }

  function createRef(body: Json): Answer {
    const ref = String(body.ref)
    const sha = String(body.sha)
    if (!/^refs\/[^/]+\/.+/.test(ref)) return error(422, 'Reference name must start with refs/ and have at least two slashes')
    if (typeOf(sha) !== 'commit') return error(422, 'Object does not exist')
    if (tryGit(['update-ref', ref, sha, '0'.repeat(40)]) === null) return error(422, 'Reference already exists')
    return { status: 201, json: refJson(ref, sha) }
  }

  function updateRef(refParam: string, body: Json): Answer {
    const ref = `refs/${refParam}`
    const sha = String(body.sha)
    const current = tryGit(['rev-parse', '--verify', '-q', ref])
    if (!current) return error(422, 'Reference does not exist')
    if (typeOf(sha) !== 'commit') return error(422, 'Object does not exist')
    if (body.force !== true && tryGit(['merge-base', '--is-ancestor', current, sha]) === null) return error(422, 'Update is not a fast forward')
    if (tryGit(['update-ref', ref, sha, current]) === null) return error(422, 'Reference cannot be updated')
    return { status: 200, json: refJson(ref, sha) }
  }

  function handle(op: Operation, body: Json): Answer | null {
    switch (op.operationId) {
      case 'git/create-blob': {
        const content = body.encoding === 'base64' ? Buffer.from(String(body.content), 'base64') : Buffer.from(String(body.content), 'utf8')
        const sha = git(['hash-object', '-w', '--stdin'], content).trim()
        return { status: 201, json: { url: opts.api(`git/blobs/${sha}`), sha } }
      }
      case 'git/create-tree':
        return createTree(body)
      case 'git/create-commit':
        return createCommit(body)
      case 'git/get-commit':
        return typeOf(op.params.commit_sha) === 'commit' ? { status: 200, json: commitJson(op.params.commit_sha) } : error(404, 'Not Found')
      case 'git/create-ref':
        return createRef(body)
      case 'git/update-ref':
        return updateRef(op.params.ref, body)
      default:
        return null
    }
  }
  return { handle, created }
}
