/**
 * A `/loopgate` comment on a pull request, read by the integration from the event file and the
 * local GitHub server, then the whole engine (executeRun, the command agent as the agent user):
 * every iteration's prompt carries the comment's words and the unresolved review threads.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createIntegration } from '../src/publish/github/integration.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { startGitHubServer } from './github-server/server.js'
import { runAttack } from './helpers/gate-fixture.js'
import { sharedTempDir, tempDir } from './helpers/repo.js'

const TOKEN = 'ghs_prloopRunToken000000000000000000001'

test('each iteration’s prompt carries the command’s words and the PR’s unresolved review threads', async () => {
  const gh = await startGitHubServer({ token: TOKEN })
  try {
    const pull = gh.addPull({ head: 'feature', headSha: 'c'.repeat(40), labels: [], author: 'contributor' })
    gh.permissions.maintainer = 'maintain'
    gh.reviewThreads.push({
      pr: pull.number,
      path: 'src/math.mjs',
      line: 2,
      isResolved: false,
      comments: [{ author: 'reviewer', body: 'add() subtracts: REVIEW-THREAD-WORDS' }]
    })
    const eventFile = path.join(tempDir('loopgate-event-'), 'event.json')
    writeFileSync(
      eventFile,
      JSON.stringify({
        action: 'created',
        issue: { number: pull.number, pull_request: { url: 'x' }, body: '', user: { login: 'contributor' } },
        comment: { id: 3131, body: '/loopgate COMMAND-WORDS: make add() add', user: { login: 'maintainer' } },
        repository: { id: 1, full_name: 'octo-org/octo-repo', default_branch: 'main' }
      })
    )
    const env = {
      GITHUB_ACTIONS: 'true',
      GITHUB_REPOSITORY: 'octo-org/octo-repo',
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_API_URL: gh.url
    }
    const inputs: Record<string, string> = {
      agent: 'command',
      'agent-command': 'true',
      prompt: 'Do what the maintainer asks.',
      'gate-command': 'true',
      'dry-run': 'true',
      'github-token': TOKEN
    }
    const settings = readSettings((n) => inputs[n] ?? '', { GITHUB_WORKSPACE: tempDir() })
    const integration = await createIntegration({ settings, env, tempDir: tempDir(), warn: () => undefined })
    expect(integration.plan).toMatchObject({ kind: 'pull-request', number: pull.number, trigger: { kind: 'command', author: 'maintainer' } })
    expect(gh.violations).toEqual([])

    const prompts = sharedTempDir()
    const r = await runAttack({
      isolation: 'auto',
      inputs: { prompt: integration.settings.prompt, 'max-iterations': '2' },
      script: `cp "$LOOPGATE_PROMPT_FILE" ${prompts}/prompt-$LOOPGATE_ITERATION.txt\necho note >> notes-$LOOPGATE_ITERATION.txt\n`
    })
    expect(r.report.run?.iterations).toHaveLength(2)
    for (const n of [1, 2]) {
      const prompt = readFileSync(path.join(prompts, `prompt-${n}.txt`), 'utf8')
      expect(prompt).toContain('Do what the maintainer asks.')
      expect(prompt).toContain('COMMAND-WORDS: make add() add')
      expect(prompt).toContain('src/math.mjs:2')
      expect(prompt).toContain('reviewer: add() subtracts: REVIEW-THREAD-WORDS')
    }
  } finally {
    await gh.close()
  }
})
