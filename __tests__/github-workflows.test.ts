import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

// js-yaml is present as a transitive dependency; read through require to stay untyped.
const require = createRequire(import.meta.url)
const yaml = require('js-yaml') as { load: (text: string) => unknown }
const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'workflows')
const ACTION_INPUTS = Object.keys((yaml.load(readFileSync(path.join(DIR, '..', '..', 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs)

type Job = { 'timeout-minutes': number; concurrency?: { group: string }; steps: { id?: string; uses?: string; with?: Record<string, unknown> }[] }
type Workflow = {
  on: Record<string, unknown>
  permissions: Record<string, string>
  concurrency?: { group: string }
  jobs: Record<string, Job>
}

describe('example workflows', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'))

  it('cover the nightly upgrade, the PR review loop, comment commands, failed checks, escalation retries and a manual dispatch', () => {
    const events = files.map((f) => Object.keys((yaml.load(readFileSync(path.join(DIR, f), 'utf8')) as Workflow).on))
    expect(events.flat()).toEqual(
      expect.arrayContaining([
        'schedule',
        'pull_request',
        'workflow_dispatch',
        'issue_comment',
        'pull_request_review_comment',
        'pull_request_review',
        'workflow_run',
        'check_suite'
      ])
    )
  })

  it('show each authentication route: a GitHub App token, Bedrock, Vertex and Azure', () => {
    const texts = files.map((f) => readFileSync(path.join(DIR, f), 'utf8')).join('\n')
    for (const needle of [
      'actions/create-github-app-token',
      'github-token: ${{ steps.app-token.outputs.token }}',
      'provider: bedrock',
      'aws-actions/configure-aws-credentials',
      'provider: vertex',
      'google-github-actions/auth',
      'provider: azure'
    ]) {
      expect(texts).toContain(needle)
    }
  })

  it.each(files)('%s has permissions, concurrency, timeout-minutes and only real inputs', (file) => {
    const wf = yaml.load(readFileSync(path.join(DIR, file), 'utf8')) as Workflow
    // With a GitHub App's token doing the publishing, the workflow's own token only reads.
    const appToken = Object.values(wf.jobs).some((job) => job.steps.some((st) => /create-github-app-token/.test(st.uses ?? '')))
    if (appToken) expect(wf.permissions).toEqual({ contents: 'read' })
    else expect(wf.permissions).toMatchObject({ contents: 'write', 'pull-requests': 'write', issues: 'write' })
    // id-token: write only where a step signs in to a cloud through OIDC; anything else beyond the
    // three is read-only (the failing checks' annotations and logs).
    const oidc = Object.values(wf.jobs).some((job) =>
      job.steps.some((st) => /configure-aws-credentials|google-github-actions\/auth|azure\/login/.test(st.uses ?? ''))
    )
    for (const [scope, level] of Object.entries(wf.permissions)) {
      if (['contents', 'pull-requests', 'issues'].includes(scope)) continue
      expect([scope, level]).toEqual([scope, scope === 'id-token' && oidc ? 'write' : 'read'])
    }
    for (const job of Object.values(wf.jobs)) {
      expect(job['timeout-minutes']).toBeGreaterThan(0)
      const step = job.steps.find((s) => s.uses?.startsWith('loopgate/loopgate'))
      if (!step) continue
      expect((job.concurrency ?? wf.concurrency)?.group).toMatch(/loopgate/)
      for (const input of Object.keys(step?.with ?? {})) expect(ACTION_INPUTS).toContain(input)
      const limit = Number(step?.with?.['time-limit-minutes'] ?? 300)
      expect(job['timeout-minutes']).toBeGreaterThan(limit)
    }
    expect(Object.values(wf.jobs).some((job) => job.steps.some((s) => s.uses?.startsWith('loopgate/loopgate')))).toBe(true)
  })
})
