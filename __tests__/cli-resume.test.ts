import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

const LONG = 180_000

const run = (command: string, repo: string, extra: string[] = []) =>
  cli(
    [
      'run',
      '--agent',
      'command',
      '--agent-command',
      command,
      '--prompt',
      'x',
      '--gate-command',
      'node test/run.mjs',
      '--max-iterations',
      '1',
      '--temp-dir',
      tempDir(),
      ...extra
    ],
    repo
  )

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs"

/** A repository whose first run escalated with work on loopgate/local. */
function escalated(): { repo: string; main: string } {
  const repo = makeRepo(buggyProject())
  const first = run("echo 'step 1 done' > NOTES.md", repo)
  expect(first.stdout).toContain('stop-reason: max-iterations')
  expect(sh(repo, ['log', '--format=%s', 'loopgate/local'])).toContain('loopgate')
  return { repo, main: sh(repo, ['rev-parse', 'main']).trim() }
}

describe('a second run of the CLI after an escalation', () => {
  it(
    'says first that it resumes, with the branch the user has and how to look at it; the base stays the checked-out branch',
    () => {
      const { repo, main } = escalated()
      const r = run(`test -f NOTES.md && ${FIX}`, repo)
      const first = r.stdout.split('\n')[0]
      expect(first).toMatch(
        /^Resuming unfinished work: the last run stopped with max-iterations, and this run starts from its work on loopgate\/local \([0-9a-f]{12}\)/
      )
      expect(first).toContain('(git log main..loopgate/local shows it)')
      expect(first).toContain('--fresh')
      expect(r.stdout).not.toContain('local-wip')
      // The protected tests still come from main, never from the resumed work.
      expect(r.stdout).toContain(`protected gate: base ${main.slice(0, 7)}`)
      expect(r.stdout).toContain('stop-reason: verified')
    },
    LONG
  )

  it(
    '--fresh starts from the base and says so first',
    () => {
      const { repo } = escalated()
      const r = run(`test ! -f NOTES.md && ${FIX}`, repo, ['--fresh'])
      expect(r.stdout.split('\n')[0]).toBe(
        'Starting from the base, as asked: the unfinished work of the last run (it stopped with max-iterations; on loopgate/local) is not resumed.'
      )
      expect(r.stdout).toContain('stop-reason: verified')
    },
    LONG
  )

  it('--fresh with --resume is a usage error', () => {
    const r = run('true', makeRepo(buggyProject()), ['--fresh', '--resume', 'true'])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('--fresh and --resume')
    expect(r.status).not.toBe(exitCodeFor('verified'))
  })
})
