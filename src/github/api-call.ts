// A GitHub API call's failure explained (the permission or setting behind a refusal), and the
// repository a run acts on; nothing here loads the HTTP client.

export interface RepoRef {
  owner: string
  repo: string
}

export function repoFromEnv(env: NodeJS.ProcessEnv): RepoRef {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/')
  if (!owner || !repo) throw new Error('GITHUB_REPOSITORY is not set (owner/repo)')
  return { owner, repo }
}

/** The workflow permission behind each kind of call, named the way `permissions:` spells it. */
export type Permission = 'contents: write' | 'pull-requests: write' | 'pull-requests: read' | 'issues: write' | 'issues: read'

export const WORKFLOW_PERMISSIONS = ['contents: write', 'pull-requests: write', 'issues: write'] as const

export class PublishError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PublishError'
  }
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

/** The repository or organisation setting that forbids GITHUB_TOKEN to open pull requests, as GitHub words its refusal. */
const PR_CREATION_DISABLED = /not permitted to create or approve pull requests/i

/** A refused API call: GitHub's status and message, what loopgate was doing, and the permission it needs. */
interface DeniedCall {
  status: number
  message: string
  what: string
  permission: Permission
}

/** What a 403 or 404 means, and the one fix: a switched-off setting or a missing permission. */
function explainDenied({ status, message, what, permission }: DeniedCall): string {
  if (status === 403 && PR_CREATION_DISABLED.test(message)) {
    return (
      `GitHub answered 403 (${message}) to ${what}: the repository's setting "Allow GitHub Actions to create and approve pull requests" is off ` +
      `(Settings → Actions → General → Workflow permissions; an organisation can switch it off for all its repositories). ` +
      `Turn it on, or give loopgate a GitHub App's token in \`github-token\`.`
    )
  }
  return (
    `GitHub answered ${status} (${message}) to ${what}: the token needs \`${permission}\`. ` +
    `Add to the workflow (or the job):\n\npermissions:\n${WORKFLOW_PERMISSIONS.map((p) => `  ${p}`).join('\n')}\n`
  )
}

/** A 403/404 becomes an error that names its cause and fix. */
export function explainApiError(err: unknown, what: string, permission: Permission): PublishError {
  const status = statusOf(err)
  const message = err instanceof Error ? err.message : String(err)
  if (status === 403 || status === 404) return new PublishError(explainDenied({ status, message, what, permission }))
  return new PublishError(`GitHub API call failed while trying to ${what}: ${status ? `${status} ` : ''}${message}`)
}

/** Whether a GitHub API error is a 404 (the resource is not there, or not visible to the token). */
export function isNotFound(err: unknown): boolean {
  return statusOf(err) === 404
}

/** Runs one API call, turning its failure into a PublishError that explains itself. */
export async function call<T>(what: string, permission: Permission, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    throw explainApiError(err, what, permission)
  }
}
