import { createRequire } from 'node:module'

/**
 * The events a dependency bot's pull request raises, as GitHub sends them: the recorded
 * `workflow_run` and `check_suite` payloads of @octokit/webhooks-examples, moved to
 * octo-org/octo-repo and given the fields a Dependabot or Renovate pull request sets (the bot as
 * sender, actor and head commit author, its branch name, the pull request listed).
 */

type Payload = Record<string, any>
const examples = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: Payload[] }[]

export const REPO_ID = 186853002
const FORK_REPO_ID = 986853002

export interface Bot {
  login: string
  id: number
  branch: string
  title: string
  body: string
}

/** Dependabot's pull request bumping greet from 1.0.0 to 2.0.0, with its release notes. */
export const DEPENDABOT: Bot = {
  login: 'dependabot[bot]',
  id: 49699333,
  branch: 'dependabot/npm_and_yarn/greet-2.0.0',
  title: 'Bump greet from 1.0.0 to 2.0.0',
  body: [
    'Bumps [greet](https://github.com/acme/greet) from 1.0.0 to 2.0.0.',
    '<details>',
    '<summary>Release notes</summary>',
    '<p><em>Sourced from <a href="https://github.com/acme/greet/releases">greet\'s releases</a>.</em></p>',
    '<blockquote>',
    '<h2>v2.0.0</h2>',
    '<p>BREAKING: words are joined with a comma (RELEASE-NOTE-MARKER).</p>',
    '</blockquote>',
    '</details>',
    '<details>',
    '<summary>Commits</summary>',
    '<ul><li><a href="https://github.com/acme/greet/commit/1a2b3c"><code>1a2b3c</code></a> 2.0.0</li></ul>',
    '</details>',
    '<br />',
    '',
    '[![Dependabot compatibility score](https://dependabot-badges.githubapp.com/badges/compatibility_score?dependency-name=greet&package-manager=npm_and_yarn&previous-version=1.0.0&new-version=2.0.0)](https://docs.github.com/en/github/managing-security-vulnerabilities/about-dependabot-security-updates#about-compatibility-scores)',
    '',
    "Dependabot will resolve any conflicts with this PR as long as you don't alter it yourself."
  ].join('\n')
}

/** Renovate's pull request updating greet to v2, its table and release notes. */
export const RENOVATE: Bot = {
  login: 'renovate[bot]',
  id: 29139614,
  branch: 'renovate/greet-2.x',
  title: 'Update dependency greet to v2',
  body: [
    'This PR contains the following updates:',
    '',
    '| Package | Change | Age | Confidence |',
    '|---|---|---|---|',
    '| [greet](https://github.com/acme/greet) | [`1.0.0` -> `2.0.0`](https://renovatebot.com/diffs/npm/greet/1.0.0/2.0.0) | [![age](https://developer.mend.io/api/mc/badges/age/npm/greet/2.0.0?slim=true)](https://docs.renovatebot.com/merge-confidence/) | [![confidence](https://developer.mend.io/api/mc/badges/confidence/npm/greet/1.0.0/2.0.0?slim=true)](https://docs.renovatebot.com/merge-confidence/) |',
    '',
    '---',
    '',
    '### Release Notes',
    '',
    '<details>',
    '<summary>acme/greet (greet)</summary>',
    '',
    '### [`v2.0.0`](https://github.com/acme/greet/releases/tag/v2.0.0)',
    '',
    'BREAKING: words are joined with a comma (RELEASE-NOTE-MARKER).',
    '',
    '</details>',
    '',
    '---',
    '',
    '### Configuration',
    '',
    '📅 **Schedule**: Branch creation - At any time (no schedule defined), Automerge - At any time (no schedule defined).',
    '',
    '<!--renovate-debug:eyJjcmVhdGVkSW5WZXIiOiIzNy4wLjAifQ==-->'
  ].join('\n')
}

function recorded(name: string): Payload {
  const found = examples.find((e) => e.name === name)?.examples.find((p) => p.action === 'completed' && p[name].pull_requests.length > 0)
  if (!found) throw new Error(`no recorded ${name} payload`)
  const payload = structuredClone(found)
  Object.assign(payload.repository, { id: REPO_ID, name: 'octo-repo', full_name: 'octo-org/octo-repo', default_branch: 'main' })
  payload.repository.owner.login = 'octo-org'
  return payload
}

const account = (bot: Pick<Bot, 'login' | 'id'>): Payload => ({
  login: bot.login,
  id: bot.id,
  type: 'Bot',
  site_admin: false,
  html_url: `https://github.com/apps/${bot.login.replace(/\[bot\]$/, '')}`
})

export interface BotCheck {
  bot: Bot
  pr: number
  head: string
  base: string
  conclusion?: string
  /** The pull request comes from a fork: GitHub lists no pull request on the check. */
  fork?: boolean
}

/** The `workflow_run` of the bot's pull request's CI workflow, completed with `conclusion`. */
export function workflowRunEvent({ bot, pr, head, base, conclusion = 'failure', fork = false }: BotCheck): Payload {
  const event = recorded('workflow_run')
  const run = event.workflow_run as Payload
  Object.assign(run, {
    id: 5151,
    check_suite_id: 6161,
    name: 'CI',
    event: 'pull_request',
    conclusion,
    head_sha: head,
    head_branch: bot.branch,
    display_title: bot.title,
    actor: account(bot),
    triggering_actor: account(bot)
  })
  run.head_commit = { ...run.head_commit, id: head, message: bot.title, author: { name: bot.login, email: `${bot.id}+${bot.login}@users.noreply.github.com` } }
  if (fork) run.head_repository = { ...run.head_repository, id: FORK_REPO_ID, full_name: 'someone/octo-repo', fork: true }
  run.pull_requests = fork ? [] : [listedPull(run.pull_requests[0], { bot, pr, head, base })]
  event.sender = account(bot)
  return event
}

/** The `check_suite` of another CI app on the bot's pull request, completed with `conclusion`. */
export function checkSuiteEvent({ bot, pr, head, base, conclusion = 'failure', fork = false }: BotCheck): Payload {
  const event = recorded('check_suite')
  const suite = event.check_suite as Payload
  Object.assign(suite, { id: 6161, conclusion, head_sha: head, head_branch: bot.branch, after: head })
  suite.app = { ...suite.app, name: 'Acme CI', slug: 'acme-ci' }
  suite.head_commit = {
    ...suite.head_commit,
    id: head,
    message: bot.title,
    author: { name: bot.login, email: `${bot.id}+${bot.login}@users.noreply.github.com` }
  }
  suite.pull_requests = fork ? [] : [listedPull(suite.pull_requests[0], { bot, pr, head, base })]
  event.sender = account(bot)
  return event
}

function listedPull(template: Payload, { bot, pr, head, base }: Omit<BotCheck, 'conclusion' | 'fork'>): Payload {
  return {
    ...template,
    url: `https://api.github.com/repos/octo-org/octo-repo/pulls/${pr}`,
    number: pr,
    head: { ref: bot.branch, sha: head, repo: { id: REPO_ID, url: 'https://api.github.com/repos/octo-org/octo-repo', name: 'octo-repo' } },
    base: { ref: 'main', sha: base, repo: { id: REPO_ID, url: 'https://api.github.com/repos/octo-org/octo-repo', name: 'octo-repo' } }
  }
}
