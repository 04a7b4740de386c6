import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { existsSync } from 'node:fs'
import MarkdownIt from 'markdown-it'
import { DIST_INDEX, runAction, type ActionRun } from './helpers/action-runner.js'
import { sh } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

/**
 * The escalation issue read as a maintainer reads it, written by the bundled action against the
 * local GitHub server and a bare remote: the decision first, the command that resumes the loop,
 * then each attempt with the files it changed.
 */

const TOKEN = 'ghs_escalationE2eToken00000000000000001'

/** The body's paragraphs and headings in reading order, as plain text. */
function readingOrder(body: string): string[] {
  const tokens = new MarkdownIt({ html: true }).parse(body, {})
  return tokens.filter((t) => t.type === 'inline').map((t) => t.content)
}

describe('an escalation issue a maintainer acts on', () => {
  let gh: GitHubServer
  let server: string
  let bare: string

  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })
  beforeEach(async () => {
    gh = await startGitHubServer({ token: TOKEN })
    ;({ server, bare } = bareRemote())
  })
  afterEach(async () => {
    await gh.close()
    expect(gh.violations).toEqual([])
  })

  const run = (inputs: Record<string, string>): Promise<ActionRun> =>
    runAction({
      workspace: checkoutOf(bare),
      eventName: 'schedule',
      event: { schedule: '0 3 * * *' },
      env: { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' },
      inputs: {
        agent: 'command',
        prompt: 'Make add() return the sum of its two arguments, and keep the tests green.',
        'gate-command': 'node test/run.mjs',
        'github-token': TOKEN,
        'call-budget-usd': '0.01',
        'spend-ceiling-usd': '1',
        'loop-id': 'adder',
        ...inputs
      }
    })

  it('on protected tampering: the decision names the protected file, the command resumes, each attempt lists its files', async () => {
    // Each attempt edits the code (wrongly) and rewrites the protected test to pass.
    const agent = [
      `printf 'export function add(a, b) {\\n  return a * b\\n}\\n' > src/math.mjs`,
      `echo "console.log('✓ math adds two numbers')" > test/run.mjs`,
      `echo 'I changed the test because it looked wrong.'`
    ].join(' && ')
    const r = await run({ 'agent-command': agent })
    expect(r.outputs['stop-reason']).toBe('protected-tampering')
    expect(gh.issues).toHaveLength(1)
    const issue = gh.issues[0]

    expect(issue.title).toBe('loopgate: Make add() return the sum of its two arguments, and keep… — protected-tampering')
    expect(issue.title.split(' — ')[0].length - 'loopgate: '.length).toBeLessThan(60)

    const order = readingOrder(issue.body)
    // The heading, then the question, then how to answer it.
    expect(order[0]).toBe('loopgate needs a person: `protected-tampering`')
    expect(order[1]).toMatch(/^\*\*Decision:\*\* the task needs ` test\/run\.mjs ` changed, which the agent may not do: change it in the base, or retry/)
    expect(order[2]).toContain('`/loopgate retry <what changed or what the agent is missing>`')

    // Each attempt: its own heading, the file it changed with +/−, the agent's words, inert.
    const attempts = issue.body.split('#### Attempt ').slice(1)
    expect(attempts).toHaveLength(2)
    expect(attempts[0]).toMatch(/Files: ` src\/math\.mjs ` \+1\/−1\./)
    // The second attempt wrote the same code again: nothing new was kept.
    expect(attempts[1]).toContain('Files: none changed.')
    for (const attempt of attempts) {
      expect(attempt).toContain('Rejected: ` rejected: protected files changed: test/run.mjs (modified)')
      expect(attempt).toContain('I changed the test because it looked wrong.')
      expect(attempt).toMatch(/Gate: failed/)
    }
    expect(attempts[1]).toMatch(/^2\n/)
    // Nothing of the rewritten test reached the remote's default branch.
    expect(sh(bare, ['show', 'main:test/run.mjs'])).toContain('expected 5')
    expect(`${r.stdout}${r.stderr}`).not.toContain(TOKEN)
  })

  it('a verified pull request lists what loopgate rejected on the way, with the iteration', async () => {
    // The first attempt switches the tests off (rejected and restored); the second fixes the code.
    const agent = [
      'if [ ! -f .tried ]; then touch .tried;',
      `echo "console.log('tests skipped')" > test/run.mjs;`,
      `else sed -i 's/a - b/a + b/' src/math.mjs; fi`
    ].join(' ')
    const r = await run({ 'agent-command': agent, 'max-iterations': '4' })
    expect(r.outputs['stop-reason']).toBe('verified')
    expect(gh.pulls).toHaveLength(1)
    const body = gh.pulls[0].body
    const section = body.slice(body.indexOf('### What loopgate rejected on the way'))
    expect(section).toMatch(/- iteration 1: ` rejected: protected files changed: test\/run\.mjs \(modified\)/)
    expect(section).not.toMatch(/- iteration 2:/)
  })
})
