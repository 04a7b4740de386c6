import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const TOKEN = 'ghs_serverTestToken0000000000000000001'

describe('the local GitHub REST server', () => {
  let gh: GitHubServer
  beforeAll(async () => {
    gh = await startGitHubServer({ token: TOKEN })
  })
  afterAll(() => gh.close())

  const call = async (method: string, path: string, body?: unknown, token = TOKEN) => {
    const res = await fetch(`${gh.url}${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: res.status, json: (await res.json()) as Record<string, unknown> }
  }

  it('answers documented operations with bodies that match the OpenAPI description', async () => {
    const created = await call('POST', '/repos/octo-org/octo-repo/pulls', { title: 't', head: 'loopgate/x', base: 'main', body: 'b' })
    expect(created.status).toBe(201)
    expect((await call('GET', '/repos/octo-org/octo-repo/pulls?state=open&per_page=100')).status).toBe(200)
    expect((await call('PATCH', `/repos/octo-org/octo-repo/pulls/${created.json.number}`, { body: 'new' })).status).toBe(200)
    expect((await call('POST', `/repos/octo-org/octo-repo/pulls/${created.json.number}/requested_reviewers`, { reviewers: ['octocat'] })).status).toBe(201)
    const issue = await call('POST', '/repos/octo-org/octo-repo/issues', { title: 'i', body: 'b', labels: ['loopgate'], assignees: ['octocat'] })
    expect(issue.status).toBe(201)
    expect((await call('POST', `/repos/octo-org/octo-repo/issues/${issue.json.number}/comments`, { body: 'c' })).status).toBe(201)
    expect((await call('POST', `/repos/octo-org/octo-repo/issues/${issue.json.number}/labels`, { labels: ['x'] })).status).toBe(200)
    expect((await call('POST', `/repos/octo-org/octo-repo/issues/${issue.json.number}/assignees`, { assignees: ['y'] })).status).toBe(201)
    expect((await call('GET', '/repos/octo-org/octo-repo/issues?state=open&labels=loopgate')).status).toBe(200)
    const me = await call('GET', '/user')
    expect(me).toMatchObject({ status: 200, json: { login: 'loopgate-bot' } })
    expect(gh.violations).toEqual([])
  })

  it('refuses a request that breaks the description, and records it', async () => {
    const before = gh.violations.length
    const bad = await call('POST', '/repos/octo-org/octo-repo/pulls', { title: 't', base: 'main' })
    expect(bad.status).toBe(422)
    expect(gh.violations.length).toBeGreaterThan(before)
    expect(gh.violations.join('\n')).toContain('head')
    gh.violations.length = 0
  })

  it('refuses a wrong token and injects failures on demand', async () => {
    expect((await call('GET', '/repos/octo-org/octo-repo/pulls', undefined, 'nope')).status).toBe(401)
    gh.fail('pulls/list', 502)
    expect((await call('GET', '/repos/octo-org/octo-repo/pulls')).status).toBe(502)
    expect((await call('GET', '/repos/octo-org/octo-repo/pulls')).status).toBe(200)
    gh.violations.length = 0
  })
})

describe('an installation token on the local server', () => {
  it('is refused by GET /user and named by GraphQL viewer', async () => {
    const gh = await startGitHubServer({ token: TOKEN, installation: true })
    try {
      const headers = { authorization: `token ${TOKEN}`, 'content-type': 'application/json' }
      expect((await fetch(`${gh.url}/user`, { headers })).status).toBe(403)
      const viewer = await fetch(`${gh.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: 'query { viewer { login } }' }) })
      expect(await viewer.json()).toEqual({ data: { viewer: { login: 'github-actions[bot]' } } })
      expect(gh.violations).toEqual([])
    } finally {
      await gh.close()
    }
  })
})

describe('the OpenAPI checks', () => {
  it('finds an answer that does not match its schema', async () => {
    const { checkResponse, matchOperation } = await import('./github-server/openapi.js')
    const op = matchOperation('POST', '/repos/o/r/issues')
    expect(op?.operationId).toBe('issues/create')
    expect(checkResponse(op!, 201, { number: 'one' }).join('\n')).toMatch(/required|must be/)
    expect(checkResponse(op!, 299, {})).toEqual(['status 299 is not documented for issues/create'])
  })
})
