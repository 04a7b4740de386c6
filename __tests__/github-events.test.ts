import { readSettings } from '../src/inputs/read-settings.js'
import { type Settings } from '../src/settings.js'
import { planEvent, settingsForPlan } from '../src/github/events.js'
import { explainApiError } from '../src/github/api-call.js'
import { isLoopPull } from '../src/publish/github/capacity.js'

function settings(extra: Record<string, string> = {}): Settings {
  const inputs: Record<string, string> = { agent: 'command', 'agent-command': 'true', prompt: 'x', 'gate-command': 'true', 'loop-id': 'nightly', ...extra }
  return readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: '/tmp' })
}

const pr = (action: string, headRepo: string | null = 'o/r') => ({
  action,
  number: 4,
  pull_request: {
    number: 4,
    html_url: 'https://github.com/o/r/pull/4',
    head: { ref: 'feature', sha: 'c'.repeat(40), repo: headRepo ? { full_name: headRepo } : null },
    base: { ref: 'develop', sha: 'd'.repeat(40), repo: { full_name: 'o/r' } }
  }
})

const notOurs = async (): Promise<boolean> => false

describe('event plans', () => {
  it('schedule and workflow_dispatch work on loopgate/<loop-id> from the ref the workflow ran on', async () => {
    const plan = await planEvent({ settings: settings(), eventName: 'schedule', payload: {}, env: { GITHUB_REF: 'refs/heads/trunk' }, isOwnCommit: notOurs })
    expect(plan).toMatchObject({ kind: 'branch', workBranch: 'loopgate/nightly', baseBranch: 'trunk' })
    const dispatched = await planEvent({
      settings: settings(),
      eventName: 'workflow_dispatch',
      payload: { repository: { default_branch: 'dev' } },
      env: {},
      isOwnCommit: notOurs
    })
    expect(dispatched).toMatchObject({ kind: 'branch', baseBranch: 'dev' })
    expect(
      await planEvent({
        settings: settings({ 'base-ref': 'release' }),
        eventName: 'schedule',
        payload: {},
        env: { GITHUB_REF: 'refs/heads/trunk' },
        isOwnCommit: notOurs
      })
    ).toMatchObject({
      baseBranch: 'release'
    })
  })

  it('a same-repository PR works on its head branch with its base as the gate base', async () => {
    for (const action of ['opened', 'synchronize', 'reopened', 'labeled']) {
      const plan = await planEvent({ settings: settings(), eventName: 'pull_request', payload: pr(action), env: {}, isOwnCommit: notOurs })
      expect(plan).toMatchObject({ kind: 'pull-request', number: 4, headBranch: 'feature', baseBranch: 'develop', headSha: 'c'.repeat(40) })
      expect(settingsForPlan(settings(), plan).baseRef).toBe('develop')
    }
    expect(await planEvent({ settings: settings(), eventName: 'pull_request', payload: pr('closed'), env: {}, isOwnCommit: notOurs })).toMatchObject({
      kind: 'skip'
    })
  })

  it('skips forks and deleted head repositories', async () => {
    expect(await planEvent({ settings: settings(), eventName: 'pull_request', payload: pr('opened', 'fork/r'), env: {}, isOwnCommit: notOurs })).toMatchObject({
      kind: 'skip',
      message: expect.stringContaining('fork (fork/r)')
    })
    expect(await planEvent({ settings: settings(), eventName: 'pull_request', payload: pr('opened', null), env: {}, isOwnCommit: notOurs })).toMatchObject({
      kind: 'skip'
    })
  })

  it('refuses pull_request_target unless allowed', async () => {
    expect(await planEvent({ settings: settings(), eventName: 'pull_request_target', payload: pr('opened'), env: {}, isOwnCommit: notOurs })).toMatchObject({
      kind: 'refuse'
    })
    expect(
      await planEvent({
        settings: settings({ 'allow-pull-request-target': 'true' }),
        eventName: 'pull_request_target',
        payload: pr('opened'),
        env: {},
        isOwnCommit: notOurs
      })
    ).toMatchObject({
      kind: 'pull-request'
    })
    expect(
      await planEvent({
        settings: settings({ 'allow-pull-request-target': 'true' }),
        eventName: 'pull_request_target',
        payload: pr('opened', 'fork/r'),
        env: {},
        isOwnCommit: notOurs
      })
    ).toMatchObject({
      kind: 'skip'
    })
  })

  it('skips when the PR head is loopgate’s own newest commit', async () => {
    const seen: string[] = []
    const plan = await planEvent({
      settings: settings(),
      eventName: 'pull_request',
      payload: pr('synchronize'),
      env: {},
      isOwnCommit: async (sha) => (seen.push(sha), true)
    })
    expect(plan).toMatchObject({ kind: 'skip', message: expect.stringContaining("loopgate's own") })
    expect(seen).toEqual(['c'.repeat(40)])
  })
})

describe('API errors and loop PRs', () => {
  it('names the permission to add on 403/404', () => {
    const err = Object.assign(new Error('Resource not accessible by integration'), { status: 403 })
    const explained = explainApiError(err, 'open the pull request', 'pull-requests: write')
    expect(explained.message).toContain('the token needs `pull-requests: write`')
    expect(explained.message).toContain('permissions:\n  contents: write\n  pull-requests: write\n  issues: write')
    expect(explainApiError(Object.assign(new Error('boom'), { status: 500 }), 'x', 'issues: write').message).not.toContain('permissions:')
  })

  it('counts a PR as the loop’s by branch prefix, or by label and marker', () => {
    const p = (ref: string, labels: string[] = [], body = '') => ({ head: { ref }, labels: labels.map((name) => ({ name })), body })
    expect(isLoopPull('nightly', ['loopgate'], p('loopgate/nightly'))).toBe(true)
    expect(isLoopPull('nightly', ['loopgate'], p('loopgate/nightly-2'))).toBe(true)
    expect(isLoopPull('nightly', ['loopgate'], p('loopgate/nightly-wip'))).toBe(false)
    expect(isLoopPull('nightly', ['loopgate'], p('loopgate/nightlyx'))).toBe(false)
    expect(isLoopPull('nightly', ['loopgate'], p('feature', ['loopgate'], '<!-- loopgate:loop-id=nightly -->'))).toBe(true)
    expect(isLoopPull('nightly', ['loopgate'], p('feature', [], '<!-- loopgate:loop-id=nightly -->'))).toBe(false)
  })
})
