import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { gitDatabase, type CreatedCommit } from './git-database.js'
import { checkRequest, checkResponse, componentSchema, matchOperation, sample, type Operation } from './openapi.js'

/**
 * A local GitHub REST server for the few operations loopgate uses. Every request and every answer
 * is checked against the operation in the extracted OpenAPI description; problems are collected in
 * `violations` (a test asserts it stays empty). Failures can be injected per operation.
 */

type Json = Record<string, unknown>

export interface StoredPull {
  number: number
  state: 'open' | 'closed'
  title: string
  body: string
  head: string
  base: string
  draft: boolean
  labels: string[]
  reviewers: string[]
  comments: string[]
  /** The login that opened it (default: the token's identity, as if an earlier run had). */
  author?: string
  headSha?: string
  /** The head repository's full name (default: this repository; another name is a fork). */
  headRepo?: string
}

export interface StoredIssue {
  number: number
  state: 'open' | 'closed'
  title: string
  body: string
  labels: string[]
  assignees: string[]
  comments: string[]
  author?: string
}

/** A comment stored with its id (`comments` of the issue or pull request holds its current body). */
export interface StoredComment {
  id: number
  issue: number
  index: number
  author: string
}

export interface StoredReaction {
  subject: 'issue-comment' | 'review-comment'
  commentId: number
  content: string
}

/** A review thread, answered through GraphQL `reviewThreads` and REST review comments. */
export interface StoredReviewThread {
  pr: number
  path: string
  line: number | null
  isResolved: boolean
  isOutdated?: boolean
  comments: { author: string; body: string }[]
}

/** A check run; with `runId` it is also that workflow run's job of the same id (as on GitHub). */
export interface StoredCheckRun {
  id: number
  name: string
  conclusion: 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out'
  headSha: string
  suiteId?: number
  runId?: number
  annotations?: { path: string; startLine: number; level: 'failure' | 'warning' | 'notice'; message: string; title?: string }[]
  /** The job's log (plain text), served through the documented redirect. */
  log?: string
  steps?: { name: string; conclusion: string }[]
}

export interface StoredCache {
  key: string
  ref: string
  version: string
  /** ISO creation time (default 2026-01-01). */
  createdAt?: string
}

export interface RecordedRequest {
  method: string
  path: string
  operationId: string | null
  status: number
  body: unknown
  /** When it was answered (ms since the epoch). */
  at?: number
}

interface Injected {
  operationId: string
  status: number
  times: number
  message: string
  headers: Record<string, string>
}

export interface GitHubServer {
  url: string
  owner: string
  repo: string
  pulls: StoredPull[]
  issues: StoredIssue[]
  requests: RecordedRequest[]
  violations: string[]
  comments: StoredComment[]
  reactions: StoredReaction[]
  reviewThreads: StoredReviewThread[]
  checkRuns: StoredCheckRun[]
  caches: StoredCache[]
  /** Collaborator permission by login (`admin`, `write`, `read`, `none`); others answer `read`. */
  permissions: Record<string, string>
  /** The body of a stored comment by id. */
  commentBody(id: number): string | undefined
  /** Answers `status` to the next `times` calls of the operation. */
  fail(operationId: string, status: number, times?: number, message?: string, headers?: Record<string, string>): void
  /** A token without the permission behind this operation: 403 "Resource not accessible by integration". */
  deny(operationId: string): void
  /** Commits the Git database endpoints created (with `gitDir`), oldest first. */
  createdCommits: CreatedCommit[]
  /** Runs `fn` once, just before the next call of the operation is answered (e.g. someone pushes in between). */
  before(operationId: string, fn: () => void): void
  /** Adds an open pull request as if a person or an earlier run had opened it. */
  addPull(pull: Partial<StoredPull> & { head: string }): StoredPull
  addIssue(issue: Partial<StoredIssue> & { title: string }): StoredIssue
  close(): Promise<void>
}

export interface GitHubServerOptions {
  owner?: string
  repo?: string
  token: string
  /** The token's identity (default `loopgate-bot`); issues, pulls and comments it creates are authored by it. */
  login?: string
  /**
   * An installation token (GITHUB_TOKEN or a GitHub App's): `GET /user` answers 403 "Resource not
   * accessible by integration", and only GraphQL's `viewer` names the identity (`login`).
   */
  installation?: boolean
  /** The token identity's numeric id (default 1); GraphQL's `viewer` gives it only with `graphqlDatabaseId`. */
  id?: number
  graphqlDatabaseId?: boolean
  /**
   * Collaborators' permissions (`admin`, `write`, `read`, …); anyone else is not a collaborator
   * (404). Default: `octo-maintainer` (the action runner's GITHUB_ACTOR) is an admin.
   */
  collaborators?: Record<string, string>
  /** Numeric ids of other accounts `GET /users/{username}` knows. */
  userIds?: Record<string, number>
  /** Live cache entries (e.g. a local cache service's), listed after `caches`. */
  cacheSource?: () => StoredCache[]
  /** The bare repository behind the Git database endpoints (blobs, trees, commits, refs); without it they answer 404. */
  gitDir?: string
}

const deepMerge = (base: unknown, over: unknown): unknown => {
  if (over === undefined) return base
  if (base && over && typeof base === 'object' && typeof over === 'object' && !Array.isArray(base) && !Array.isArray(over)) {
    const out: Json = { ...(base as Json) }
    for (const [k, v] of Object.entries(over as Json)) out[k] = deepMerge((base as Json)[k], v)
    return out
  }
  return over
}

export async function startGitHubServer(opts: GitHubServerOptions): Promise<GitHubServer> {
  const owner = opts.owner ?? 'octo-org'
  const repo = opts.repo ?? 'octo-repo'
  const pulls: StoredPull[] = []
  const issues: StoredIssue[] = []
  const requests: RecordedRequest[] = []
  const violations: string[] = []
  const comments: StoredComment[] = []
  const reactions: StoredReaction[] = []
  const reviewThreads: StoredReviewThread[] = []
  const checkRuns: StoredCheckRun[] = []
  const caches: StoredCache[] = []
  const permissions: Record<string, string> = { ...(opts.collaborators ?? { 'octo-maintainer': 'admin' }) }
  const injected: Injected[] = []
  const hooks: { operationId: string; fn: () => void }[] = []
  let nextNumber = 1
  let nextId = 1000
  let origin = ''
  const login = opts.login ?? (opts.installation ? 'github-actions[bot]' : 'loopgate-bot')

  const web = (p: string): string => `https://github.com/${owner}/${repo}/${p}`
  const api = (p: string): string => `${origin}/repos/${owner}/${repo}/${p}`
  const user = (name: string): unknown =>
    deepMerge(sample(componentSchema('simple-user')), {
      login: name,
      id: 1,
      type: name.endsWith('[bot]') ? 'Bot' : 'User',
      html_url: name.endsWith('[bot]') ? `https://github.com/apps/${name.slice(0, -'[bot]'.length)}` : `https://github.com/${name}`
    })
  const label = (name: string): unknown =>
    deepMerge(sample(componentSchema('label')), { name, id: nextId++, color: 'ededed', description: '', url: api(`labels/${name}`) })
  const repository = (): unknown =>
    deepMerge(sample(componentSchema('repository')), {
      name: repo,
      full_name: `${owner}/${repo}`,
      owner: user(owner),
      default_branch: 'main',
      html_url: `https://github.com/${owner}/${repo}`
    })

  const pullJson = (p: StoredPull, full: boolean): unknown => {
    const base = sample(componentSchema(full ? 'pull-request' : 'pull-request-simple'))
    return deepMerge(base, {
      number: p.number,
      id: p.number + 5000,
      state: p.state,
      title: p.title,
      body: p.body,
      draft: p.draft,
      html_url: web(`pull/${p.number}`),
      url: api(`pulls/${p.number}`),
      user: user(p.author ?? login),
      labels: p.labels.map(label),
      requested_reviewers: p.reviewers.map(user),
      head: {
        ref: p.head,
        sha: p.headSha ?? '0'.repeat(40),
        label: `${owner}:${p.head}`,
        repo:
          p.headRepo && p.headRepo !== `${owner}/${repo}` ? deepMerge(repository(), { full_name: p.headRepo, name: p.headRepo.split('/')[1] }) : repository(),
        user: user(owner)
      },
      base: { ref: p.base, sha: '0'.repeat(40), label: `${owner}:${p.base}`, repo: repository(), user: user(owner) }
    })
  }
  const issueJson = (i: StoredIssue | StoredPull): unknown => {
    const isPull = 'head' in i
    return deepMerge(sample(componentSchema('issue')), {
      number: i.number,
      id: i.number + 9000,
      state: i.state,
      title: i.title,
      body: i.body,
      html_url: web(`${isPull ? 'pull' : 'issues'}/${i.number}`),
      url: api(`issues/${i.number}`),
      user: user(i.author ?? login),
      labels: i.labels.map(label),
      assignees: 'assignees' in i ? i.assignees.map(user) : [],
      ...(isPull ? { pull_request: { url: api(`pulls/${i.number}`), html_url: web(`pull/${i.number}`), diff_url: null, patch_url: null } } : {})
    })
  }
  const commentJson = (c: StoredComment, body: string): unknown =>
    deepMerge(sample(componentSchema('issue-comment')), {
      id: c.id,
      body,
      html_url: web(`issues/${c.issue}#issuecomment-${c.id}`),
      issue_url: api(`issues/${c.issue}`),
      url: api(`issues/comments/${c.id}`),
      user: user(c.author)
    })
  const checkRunJson = (r: StoredCheckRun): unknown =>
    deepMerge(sample(componentSchema('check-run')), {
      id: r.id,
      name: r.name,
      head_sha: r.headSha,
      status: 'completed',
      conclusion: r.conclusion,
      url: api(`check-runs/${r.id}`),
      html_url: web(`runs/${r.id}`),
      check_suite: r.suiteId ? { id: r.suiteId } : null,
      output: { title: null, summary: null, text: null, annotations_count: r.annotations?.length ?? 0, annotations_url: api(`check-runs/${r.id}/annotations`) },
      pull_requests: []
    })
  const jobJson = (r: StoredCheckRun): unknown =>
    deepMerge(sample(componentSchema('job')), {
      id: r.id,
      run_id: r.runId,
      head_sha: r.headSha,
      name: r.name,
      status: 'completed',
      conclusion: r.conclusion,
      url: api(`actions/jobs/${r.id}`),
      html_url: web(`actions/runs/${r.runId}/job/${r.id}`),
      check_run_url: api(`check-runs/${r.id}`),
      steps: (r.steps ?? []).map((st, i) => ({ name: st.name, status: 'completed', conclusion: st.conclusion, number: i + 1 }))
    })
  const paged = <T>(all: T[], query: URLSearchParams): T[] => {
    const perPage = Number(query.get('per_page') ?? 30)
    const page = Number(query.get('page') ?? 1)
    return all.slice((page - 1) * perPage, page * perPage)
  }
  const error = (status: number, message: string): Json => ({ message, documentation_url: 'https://docs.github.com/rest', status: String(status) })
  const gitDb = opts.gitDir
    ? gitDatabase({ gitDir: opts.gitDir, login, id: opts.id ?? (opts.installation ? 41898282 : 1), installation: opts.installation === true, api, web })
    : null
  const findIssueOrPull = (n: number): StoredIssue | StoredPull | undefined => issues.find((i) => i.number === n) ?? pulls.find((p) => p.number === n)

  function handle(op: Operation, query: URLSearchParams, body: Json): { status: number; json: unknown; headers?: Record<string, string> } {
    const repoScoped = 'owner' in op.params || 'repo' in op.params
    if (repoScoped && (op.params.owner !== owner || op.params.repo !== repo)) return { status: 404, json: error(404, 'Not Found') }
    switch (op.operationId) {
      case 'pulls/list': {
        const state = query.get('state') ?? 'open'
        const head = query.get('head')
        const base = query.get('base')
        const perPage = Number(query.get('per_page') ?? 30)
        const page = Number(query.get('page') ?? 1)
        const all = pulls.filter((p) => (state === 'all' || p.state === state) && (!head || `${owner}:${p.head}` === head) && (!base || p.base === base))
        return { status: 200, json: all.slice((page - 1) * perPage, page * perPage).map((p) => pullJson(p, false)) }
      }
      case 'pulls/create': {
        const head = String(body.head)
        const base = String(body.base)
        if (pulls.some((p) => p.state === 'open' && p.head === head && p.base === base)) {
          return {
            status: 422,
            json: {
              ...error(422, 'Validation Failed'),
              errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${owner}:${head}.` }]
            }
          }
        }
        const pull: StoredPull = {
          number: nextNumber++,
          state: 'open',
          title: String(body.title ?? ''),
          body: String(body.body ?? ''),
          head,
          base,
          draft: body.draft === true,
          labels: [],
          reviewers: [],
          comments: [],
          author: login
        }
        pulls.push(pull)
        return { status: 201, json: pullJson(pull, true) }
      }
      case 'pulls/update': {
        const pull = pulls.find((p) => p.number === Number(op.params.pull_number))
        if (!pull) return { status: 404, json: error(404, 'Not Found') }
        if (typeof body.title === 'string') pull.title = body.title
        if (typeof body.body === 'string') pull.body = body.body
        if (body.state === 'open' || body.state === 'closed') pull.state = body.state
        if (typeof body.base === 'string') pull.base = body.base
        return { status: 200, json: pullJson(pull, true) }
      }
      case 'pulls/request-reviewers': {
        const pull = pulls.find((p) => p.number === Number(op.params.pull_number))
        if (!pull) return { status: 404, json: error(404, 'Not Found') }
        pull.reviewers.push(...((body.reviewers as string[] | undefined) ?? []))
        return { status: 201, json: pullJson(pull, false) }
      }
      case 'issues/list-for-repo': {
        const state = query.get('state') ?? 'open'
        const wanted = (query.get('labels') ?? '').split(',').filter(Boolean)
        const all = [...issues, ...pulls]
          .filter((i) => (state === 'all' || i.state === state) && wanted.every((l) => i.labels.includes(l)))
          .sort((a, b) => b.number - a.number)
        const perPage = Number(query.get('per_page') ?? 30)
        const page = Number(query.get('page') ?? 1)
        return { status: 200, json: all.slice((page - 1) * perPage, page * perPage).map(issueJson) }
      }
      case 'issues/create': {
        const issue: StoredIssue = {
          number: nextNumber++,
          state: 'open',
          title: String(body.title),
          body: String(body.body ?? ''),
          labels: ((body.labels as unknown[] | undefined) ?? []).map(String),
          assignees: ((body.assignees as string[] | undefined) ?? []).slice(),
          comments: [],
          author: login
        }
        issues.push(issue)
        return { status: 201, json: issueJson(issue) }
      }
      case 'issues/create-comment': {
        const n = Number(op.params.issue_number)
        const target = findIssueOrPull(n)
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        target.comments.push(String(body.body))
        const stored: StoredComment = { id: nextId++, issue: n, index: target.comments.length - 1, author: login }
        comments.push(stored)
        return { status: 201, json: commentJson(stored, String(body.body)) }
      }
      case 'issues/list-comments': {
        const n = Number(op.params.issue_number)
        const target = findIssueOrPull(n)
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        const listed = comments.filter((c) => c.issue === n).map((c) => commentJson(c, target.comments[c.index] ?? ''))
        return { status: 200, json: paged(listed, query) }
      }
      case 'issues/update-comment': {
        const stored = comments.find((c) => c.id === Number(op.params.comment_id))
        const target = stored && findIssueOrPull(stored.issue)
        if (!stored || !target) return { status: 404, json: error(404, 'Not Found') }
        if (stored.author !== login) return { status: 403, json: error(403, 'Must have admin rights to Repository.') }
        target.comments[stored.index] = String(body.body)
        return { status: 200, json: commentJson(stored, String(body.body)) }
      }
      case 'reactions/create-for-issue-comment':
      case 'reactions/create-for-pull-request-review-comment': {
        const subject = op.operationId === 'reactions/create-for-issue-comment' ? 'issue-comment' : 'review-comment'
        const commentId = Number(op.params.comment_id)
        const content = String(body.content)
        const known = reactions.find((r) => r.subject === subject && r.commentId === commentId && r.content === content)
        if (!known) reactions.push({ subject, commentId, content })
        return { status: known ? 200 : 201, json: deepMerge(sample(componentSchema('reaction')), { id: nextId++, content, user: user(login) }) }
      }
      case 'issues/get': {
        const target = findIssueOrPull(Number(op.params.issue_number))
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        return { status: 200, json: issueJson(target) }
      }
      case 'issues/update': {
        const target = findIssueOrPull(Number(op.params.issue_number))
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        if (typeof body.body === 'string') target.body = body.body
        if (typeof body.title === 'string') target.title = body.title
        if (body.state === 'open' || body.state === 'closed') target.state = body.state
        return { status: 200, json: issueJson(target) }
      }
      case 'pulls/get': {
        const pull = pulls.find((p) => p.number === Number(op.params.pull_number))
        if (!pull) return { status: 404, json: error(404, 'Not Found') }
        return { status: 200, json: pullJson(pull, true) }
      }
      case 'pulls/list-review-comments': {
        const n = Number(op.params.pull_number)
        const all = reviewThreads
          .filter((t) => t.pr === n)
          .flatMap((t) =>
            t.comments.map((c) =>
              deepMerge(sample(componentSchema('pull-request-review-comment')), {
                id: nextId++,
                path: t.path,
                line: t.line ?? undefined,
                body: c.body,
                user: user(c.author),
                html_url: web(`pull/${n}#discussion`),
                pull_request_url: api(`pulls/${n}`)
              })
            )
          )
        return { status: 200, json: paged(all, query) }
      }
      case 'checks/list-for-suite': {
        const all = checkRuns.filter((r) => r.suiteId === Number(op.params.check_suite_id))
        return { status: 200, json: { total_count: all.length, check_runs: paged(all, query).map(checkRunJson) } }
      }
      case 'checks/list-annotations': {
        const run = checkRuns.find((r) => r.id === Number(op.params.check_run_id))
        if (!run) return { status: 404, json: error(404, 'Not Found') }
        const all = (run.annotations ?? []).map((a) => ({
          path: a.path,
          start_line: a.startLine,
          end_line: a.startLine,
          start_column: null,
          end_column: null,
          annotation_level: a.level,
          title: a.title ?? null,
          message: a.message,
          raw_details: null,
          blob_href: web(`blob/${run.headSha}/${a.path}`)
        }))
        return { status: 200, json: paged(all, query) }
      }
      case 'actions/list-jobs-for-workflow-run': {
        const all = checkRuns.filter((r) => r.runId === Number(op.params.run_id))
        return { status: 200, json: { total_count: all.length, jobs: paged(all, query).map(jobJson) } }
      }
      case 'actions/download-job-logs-for-workflow-run': {
        const run = checkRuns.find((r) => r.id === Number(op.params.job_id) && r.runId !== undefined)
        if (!run) return { status: 404, json: error(404, 'Not Found') }
        return { status: 302, json: null, headers: { location: `${origin}/_job-logs/${run.id}` } }
      }
      case 'actions/get-actions-cache-list': {
        const key = query.get('key')
        const ref = query.get('ref')
        const all = [...caches, ...(opts.cacheSource?.() ?? [])]
          .sort(
            (a, b) =>
              (query.get('direction') === 'asc' ? 1 : -1) * ((a.createdAt ?? '') < (b.createdAt ?? '') ? -1 : (a.createdAt ?? '') > (b.createdAt ?? '') ? 1 : 0)
          )
          .filter((c) => (!key || c.key.startsWith(key)) && (!ref || c.ref === ref))
          .map((c, i) => ({
            id: i + 1,
            ref: c.ref,
            key: c.key,
            version: c.version,
            last_accessed_at: '2026-01-01T00:00:00Z',
            created_at: c.createdAt ?? '2026-01-01T00:00:00Z',
            size_in_bytes: 400
          }))
        return { status: 200, json: { total_count: all.length, actions_caches: paged(all, query) } }
      }
      case 'issues/add-labels': {
        const target = findIssueOrPull(Number(op.params.issue_number))
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        for (const l of (body.labels as string[] | undefined) ?? []) if (!target.labels.includes(l)) target.labels.push(l)
        return { status: 200, json: target.labels.map(label) }
      }
      case 'issues/add-assignees': {
        const target = issues.find((i) => i.number === Number(op.params.issue_number))
        if (!target) return { status: 404, json: error(404, 'Not Found') }
        for (const a of (body.assignees as string[] | undefined) ?? []) if (!target.assignees.includes(a)) target.assignees.push(a)
        return { status: 201, json: issueJson(target) }
      }
      case 'users/get-authenticated': {
        if (opts.installation) return { status: 403, json: error(403, 'Resource not accessible by integration') }
        return {
          status: 200,
          json: deepMerge(sample(componentSchema('private-user')), { login, id: opts.id ?? 1, type: 'User', html_url: `https://github.com/${login}` })
        }
      }
      case 'users/get-by-username': {
        const name = String(op.params.username)
        const id = name === login ? (opts.id ?? 1) : opts.userIds?.[name]
        if (id === undefined) return { status: 404, json: error(404, 'Not Found') }
        return { status: 200, json: deepMerge(sample(componentSchema('public-user')), { ...(user(name) as Json), id, user_view_type: 'public' }) }
      }
      case 'repos/get-collaborator-permission-level': {
        const name = String(op.params.username)
        // Without a configured list, anyone not named answers `read`; with one, a stranger is not a collaborator (404).
        const known = Object.entries(permissions).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1]
        const permission = known ?? (opts.collaborators ? undefined : 'read')
        if (permission === undefined) return { status: 404, json: error(404, 'Not Found') }
        const legacy = permission === 'maintain' ? 'write' : permission === 'triage' ? 'read' : permission
        const collaborator = deepMerge(sample(componentSchema('nullable-collaborator')), { login: name, id: nextId++, type: 'User', role_name: permission })
        return { status: 200, json: { permission: legacy, role_name: permission, user: collaborator } }
      }
      default:
        return gitDb?.handle(op, body) ?? { status: 404, json: error(404, 'Not Found') }
    }
  }

  /**
   * GraphQL is outside the REST description: `viewer { login }` and a pull request's
   * `reviewThreads` (GitHub's PullRequestReviewThread: isResolved, isOutdated, path, line, comments)
   * are answered, with the variables owner, repo, number (and cursor, ignored: one page).
   */
  function graphql(body: Json): { status: number; json: unknown } {
    const query = typeof body.query === 'string' ? body.query : ''
    const variables = (body.variables ?? {}) as Json
    if (/\breviewThreads\b/.test(query)) {
      if (variables.owner !== owner || variables.repo !== repo)
        return { status: 200, json: { data: { repository: null }, errors: [{ type: 'NOT_FOUND', message: 'Could not resolve to a Repository' }] } }
      const n = Number(variables.number)
      const pull = pulls.find((p) => p.number === n)
      if (!pull)
        return {
          status: 200,
          json: {
            data: { repository: { pullRequest: null } },
            errors: [{ type: 'NOT_FOUND', message: `Could not resolve to a PullRequest with the number of ${n}.` }]
          }
        }
      const nodes = reviewThreads
        .filter((t) => t.pr === n)
        .map((t) => ({
          isResolved: t.isResolved,
          isOutdated: t.isOutdated ?? false,
          path: t.path,
          line: t.line,
          comments: { nodes: t.comments.map((c) => ({ body: c.body, author: { login: c.author } })) }
        }))
      return { status: 200, json: { data: { repository: { pullRequest: { reviewThreads: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } } } } } }
    }
    if (!/\bviewer\s*\{[^}]*\blogin\b/.test(query))
      return { status: 200, json: { errors: [{ message: 'the local server answers only viewer { login } and reviewThreads' }] } }
    const withId = opts.graphqlDatabaseId && /\bdatabaseId\b/.test(query)
    return { status: 200, json: { data: { viewer: { login, ...(withId ? { databaseId: opts.id ?? 1 } : {}) } } } }
  }

  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1')
      const method = req.method ?? 'GET'
      // Where the documented redirect of a job's logs points (GitHub: a signed storage URL).
      const logs = /^\/_job-logs\/(\d+)$/.exec(url.pathname)
      if (method === 'GET' && logs) {
        const run = checkRuns.find((r) => r.id === Number(logs[1]))
        requests.push({ method, path: url.pathname, operationId: null, status: run ? 200 : 404, body: undefined })
        res.writeHead(run ? 200 : 404, { 'content-type': 'text/plain; charset=utf-8' })
        return res.end(run?.log ?? '')
      }
      if (method === 'POST' && url.pathname === '/graphql') {
        const auth = req.headers.authorization ?? ''
        const ok = auth === `token ${opts.token}` || auth === `Bearer ${opts.token}`
        let query: Json = {}
        try {
          query = JSON.parse(raw) as Json
        } catch {
          // answered as an unknown query
        }
        const answer = ok ? graphql(query) : { status: 401, json: error(401, 'Bad credentials') }
        requests.push({ method, path: url.pathname, operationId: 'graphql', status: answer.status, body: query })
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' })
        return res.end(JSON.stringify(answer.json))
      }
      const op = matchOperation(method, url.pathname)
      let parsed: unknown
      const send = (status: number, json: unknown, headers: Record<string, string> = {}): void => {
        requests.push({ method, path: url.pathname + url.search, operationId: op?.operationId ?? null, status, body: parsed, at: Date.now() })
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-github-media-type': 'github.v3', ...headers })
        res.end(JSON.stringify(json))
      }
      if (!op) {
        violations.push(`undocumented request ${method} ${url.pathname}`)
        return send(404, error(404, 'Not Found'))
      }
      const auth = req.headers.authorization ?? ''
      if (auth !== `token ${opts.token}` && auth !== `Bearer ${opts.token}`) return send(401, error(401, 'Bad credentials'))
      try {
        parsed = raw === '' ? undefined : JSON.parse(raw)
      } catch {
        violations.push(`${op.operationId}: the body is not JSON`)
        return send(400, error(400, 'Problems parsing JSON'))
      }
      let problems: string[]
      try {
        problems = checkRequest(op, url.searchParams, parsed)
      } catch (err) {
        problems = [`the checker failed: ${(err as Error).message}`]
      }
      if (problems.length > 0) {
        violations.push(...problems.map((p) => `${op.operationId} request: ${p}`))
        return send(422, error(422, `Invalid request: ${problems.join('; ')}`))
      }
      const fault = injected.find((f) => f.operationId === op.operationId && f.times > 0)
      if (fault) {
        fault.times--
        return send(fault.status, error(fault.status, fault.message), fault.headers)
      }
      const hook = hooks.findIndex((h) => h.operationId === op.operationId)
      if (hook >= 0) hooks.splice(hook, 1)[0].fn()
      const answer = handle(op, url.searchParams, (parsed ?? {}) as Json)
      let bad: string[]
      try {
        bad = checkResponse(op, answer.status, answer.json)
      } catch (err) {
        bad = [`the checker failed: ${(err as Error).message}`]
      }
      if (bad.length > 0) violations.push(...bad)
      send(answer.status, answer.json, answer.headers)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url: origin,
    owner,
    repo,
    pulls,
    issues,
    requests,
    violations,
    comments,
    reactions,
    reviewThreads,
    checkRuns,
    caches,
    permissions,
    createdCommits: gitDb?.created ?? [],
    before(operationId, fn) {
      hooks.push({ operationId, fn })
    },
    commentBody(id) {
      const stored = comments.find((c) => c.id === id)
      return stored ? findIssueOrPull(stored.issue)?.comments[stored.index] : undefined
    },
    fail(operationId, status, times = 1, message = status >= 500 ? 'Server Error' : 'Error', headers = {}) {
      injected.push({ operationId, status, times, message, headers })
    },
    deny(operationId) {
      injected.push({ operationId, status: 403, times: Number.MAX_SAFE_INTEGER, message: 'Resource not accessible by integration', headers: {} })
    },
    addPull(p) {
      const pull: StoredPull = {
        number: nextNumber++,
        state: 'open',
        title: 'loop PR',
        body: '',
        base: 'main',
        draft: false,
        labels: ['loopgate'],
        reviewers: [],
        comments: [],
        author: login,
        ...p
      }
      pulls.push(pull)
      return pull
    },
    addIssue(i) {
      const issue: StoredIssue = { number: nextNumber++, state: 'open', body: '', labels: ['loopgate'], assignees: [], comments: [], author: login, ...i }
      issues.push(issue)
      return issue
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
