import type { CheckSuiteCompletedEvent, WorkflowRunCompletedEvent } from '@octokit/webhooks-types'

/** The failed check of a pull request that `task: fix-dependency-pr` answers, read from its event. */
export interface FailedBotCheck {
  event: 'workflow_run' | 'check_suite'
  /** The failed check's name (the workflow, or the check suite's app). */
  name: string
  pull: number
  /** The commit the check failed on: the pull request's head then. */
  headSha: string
}

/** Why the event is not one the task answers: skipped before anything is spent. */
export interface BotEventRefusal {
  kind: 'refused'
  message: string
  /** The workflow runs the task on an event it never answers: a configuration error, not a skip. */
  misconfigured?: boolean
}

interface Listed {
  number: number
  head: { repo: { id: number } }
  base: { repo: { id: number } }
}

interface CheckSource {
  conclusion: string | null
  head_sha: string
  pull_requests?: Listed[]
}

const refused = (message: string): BotEventRefusal => ({ kind: 'refused', message })

/**
 * A completed `workflow_run` or `check_suite` that concluded `failure` and lists one pull request
 * of this repository. GitHub lists no pull request for a fork's head, so a fork is refused here
 * already (and again from the pull request itself).
 */
export function readFailedBotCheck(eventName: string, payload: Record<string, unknown>): FailedBotCheck | BotEventRefusal {
  if (eventName !== 'workflow_run' && eventName !== 'check_suite') {
    return {
      kind: 'refused',
      misconfigured: true,
      message: `task fix-dependency-pr runs on a failed \`workflow_run\` or \`check_suite\` of a dependency bot's pull request, not on a ${eventName || 'local'} event`
    }
  }
  const suite = eventName === 'check_suite' ? (payload as unknown as CheckSuiteCompletedEvent).check_suite : undefined
  const run = eventName === 'workflow_run' ? (payload as unknown as WorkflowRunCompletedEvent).workflow_run : undefined
  const source = (suite ?? run) as CheckSource | undefined
  if (payload.action !== 'completed' || !source) return refused(`skipped: the ${eventName} event is '${String(payload.action)}', not a completed check`)
  if (source.conclusion !== 'failure') {
    return refused(`skipped: the ${eventName} concluded '${String(source.conclusion)}'; fix-dependency-pr answers only a check that failed`)
  }
  const repositoryId = (payload.repository as { id?: number } | undefined)?.id
  const listed = source.pull_requests ?? []
  const own = listed.filter((p) => p.head.repo.id === repositoryId && p.base.repo.id === repositoryId)
  if (own.length !== 1) {
    const why = listed.length === 0 ? 'it lists no pull request (GitHub lists none for a fork)' : `it lists ${own.length} pull requests of this repository`
    return refused(`skipped: the failed ${eventName} is not one same-repository pull request's: ${why}`)
  }
  const name = run ? run.name : (suite?.app?.name ?? 'check suite')
  return { event: eventName, name: name ?? eventName, pull: own[0].number, headSha: source.head_sha }
}
