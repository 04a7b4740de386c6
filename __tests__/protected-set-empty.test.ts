import { existsSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

const LONG = 120_000

/** An agent that would pass any gate by rewriting the test, if the test were not protected. */
const REWRITE = 'echo "console.log(\'✓ math adds two numbers\')" > test/run.mjs'

describe('a protected set that holds no file of the base', () => {
  it.each([['!**'], ['!test/**']])(
    '--protected-paths %s is a config-error before any call, naming the input',
    (given) => {
      const repo = makeRepo(buggyProject())
      const r = cli(
        [
          'run',
          '--agent',
          'command',
          '--agent-command',
          REWRITE,
          '--prompt',
          'x',
          '--gate-command',
          'node test/run.mjs',
          '--protected-paths',
          given,
          '--temp-dir',
          tempDir()
        ],
        repo
      )
      expect(r.status).toBe(exitCodeFor('config-error'))
      expect(r.stderr).toContain('protected-paths')
      expect(r.stderr).toContain(given)
      expect(r.stdout).not.toMatch(/^iteration 1/m)
      expect(r.stdout).not.toContain('stop-reason: verified')
    },
    LONG
  )

  it(
    'the printed list is the list in force: its exclusions are shown, with the count of files it protects',
    () => {
      const repo = makeRepo({ ...buggyProject(), 'test/extra.test.mjs': '' })
      const fixing = ['run', '--agent', 'command', '--agent-command', "sed -i 's/a - b/a + b/' src/math.mjs", '--prompt', 'x']
      const r = cli([...fixing, '--gate-command', 'node test/run.mjs', '--protected-paths', '!test/extra*', '--verbose', '--temp-dir', tempDir()], repo)
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.stdout).toMatch(/protected paths \(resolved\): .*, except ` test\/extra\* ` \(1 file\(s\) at the base\)/)
    },
    LONG
  )

  it(
    'the action stops the same way, before any call',
    async () => {
      if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
      const repo = makeRepo(buggyProject())
      const run = await runAction({
        workspace: repo,
        inputs: {
          agent: 'command',
          'agent-command': `touch called; ${REWRITE}`,
          prompt: 'x',
          'gate-command': 'node test/run.mjs',
          'protected-paths': '!**',
          'dry-run': 'true'
        }
      })
      expect(run.outputs['stop-reason']).toBe('config-error')
      expect(run.outputs['spend-usd']).toBe('0.00')
      expect(run.stdout).toContain("Input 'protected-paths'")
      expect(existsSync(path.join(repo, 'called'))).toBe(false)
    },
    LONG
  )
})
