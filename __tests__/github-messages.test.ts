import { createClient } from '../src/github/client.js'
import { explainApiError } from '../src/github/api-call.js'
import { ProgressComment } from '../src/publish/github/progress-comment.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

/** GitHub's refusals explained by their true cause, against the local GitHub server. */

const TOKEN = 'ghs_messagesTestToken000000000000000001'
const REPO = { owner: 'octo-org', repo: 'octo-repo' }

describe('what a refusal from GitHub is explained as', () => {
  let gh: GitHubServer
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterEach(async () => {
    await gh.close()
  })

  it('a 403 because the repository forbids Actions to open pull requests names that setting, not a permission', async () => {
    const message = 'GitHub Actions is not permitted to create or approve pull requests.'
    gh.fail('pulls/create', 403, 1, message)
    const client = createClient(TOKEN, { GITHUB_API_URL: gh.url }, () => undefined)
    const err = await client.rest.pulls.create({ ...REPO, head: 'loopgate/x', base: 'main', title: 't' }).then(
      () => undefined,
      (e: unknown) => e
    )
    const explained = explainApiError(err, 'open the pull request', 'pull-requests: write')
    expect(explained.message).toContain('Allow GitHub Actions to create and approve pull requests')
    expect(explained.message).toContain('github-token')
    expect(explained.message).not.toContain('the token needs')
    expect(explained.message).not.toContain('permissions:')
  })

  it('a 403 for a missing permission still names the permission', () => {
    const err = Object.assign(new Error('Resource not accessible by integration'), { status: 403 })
    expect(explainApiError(err, 'open the pull request', 'pull-requests: write').message).toContain('the token needs `pull-requests: write`')
  })

  it('a progress comment deleted between two edits is written anew, with no permission warning', async () => {
    const pull = gh.addPull({ head: 'feature', title: 'a PR' })
    const warnings: string[] = []
    const client = createClient(TOKEN, { GITHUB_API_URL: gh.url }, (m) => warnings.push(m))
    const comment = new ProgressComment({ client, repo: REPO, issueNumber: pull.number, warn: (m) => warnings.push(m) })
    await comment.write('first')
    const firstUrl = comment.url
    // GitHub answers an edit of a deleted comment with 404.
    gh.fail('issues/update-comment', 404, 1, 'Not Found')
    await comment.write('second')
    expect(warnings).toEqual([])
    expect(comment.url).not.toBe(firstUrl)
    const created = gh.requests.filter((q) => q.operationId === 'issues/create-comment').map((q) => q.status)
    expect(created).toEqual([201, 201])
    await comment.write('third')
    expect(gh.requests.filter((q) => q.operationId === 'issues/update-comment').map((q) => q.status)).toEqual([404, 200])
  })
})
