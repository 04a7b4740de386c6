import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import MarkdownIt from 'markdown-it'
import { runAction, runPost, DIST_INDEX } from './helpers/action-runner.js'
import { buggyProject, makeRepo } from './helpers/repo.js'

const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`

describe('the bundled action, run as the runner runs it', () => {
  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })

  it('verifies a fix and writes outputs, summary and the dry-run PR body', async () => {
    const repo = makeRepo(buggyProject())
    const run = await runAction({
      workspace: repo,
      inputs: {
        agent: 'command',
        'agent-command': FIX,
        prompt: 'Make add() add.',
        'gate-command': 'node test/run.mjs',
        'dry-run': 'true',
        'github-token': 'ghs_e2eFakeToken000000000000000000001'
      }
    })
    expect(run.exitCode).toBe(0)
    expect(run.outputs['stop-reason']).toBe('verified')
    expect(run.outputs.outcome).toBe('verified')
    expect(run.outputs.iterations).toBe('1')
    expect(run.summary).toContain('loopgate: verified')
    // The resolved protected globs are shown as code: `**/*.test.*` rendered as markdown would be emphasis.
    const globs = new MarkdownIt().render(run.summary.split('\n').find((l) => l.includes('protected paths (resolved)')) ?? '')
    expect(globs).toContain('<code>**/*.test.*</code>')
    expect(globs).not.toMatch(/<(em|strong)>/)
    expect(existsSync(run.outputs['log-file'])).toBe(true)
    const progress = readFileSync(path.join(repo, '.loopgate/progress.md'), 'utf8').trim().split('\n')
    expect(progress[progress.length - 1]).toBe('stop-reason: verified')
    const post = await runPost(run, { workspace: repo, inputs: {} })
    expect(post.exitCode).toBe(0)
    expect(`${run.stdout}${post.stdout}`).not.toContain('ghs_e2eFakeToken')
  })

  it('fails a bad input with config-error before any call', async () => {
    const repo = makeRepo(buggyProject())
    const run = await runAction({
      workspace: repo,
      inputs: { agent: 'command', 'agent-command': 'touch called', prompt: 'x', 'gate-command': 'true', 'max-iterations': '0' }
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.outputs['stop-reason']).toBe('config-error')
    expect(run.outputs['spend-usd']).toBe('0.00')
    expect(run.stdout).toContain("Input 'max-iterations'")
    expect(existsSync(path.join(repo, 'called'))).toBe(false)
  })

  it('fails an unresolvable base-ref with config-error before any call', async () => {
    const repo = makeRepo(buggyProject())
    const run = await runAction({
      workspace: repo,
      inputs: { agent: 'command', 'agent-command': 'touch called', prompt: 'x', 'gate-command': 'true', 'base-ref': 'no-such-branch', 'dry-run': 'true' }
    })
    expect(run.exitCode).not.toBe(0)
    expect(run.outputs['stop-reason']).toBe('config-error')
    expect(run.stdout).toContain("Input 'base-ref'")
    expect(existsSync(path.join(repo, 'called'))).toBe(false)
  })
})
