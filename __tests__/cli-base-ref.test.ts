import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

const LONG = 120_000

/** An agent that changes a file but fixes nothing: only a gate with the base's tests fails it. */
const IDLE = [
  'run',
  '--agent',
  'command',
  '--agent-command',
  'date +%N >> notes',
  '--prompt',
  'x',
  '--gate-command',
  'node test/run.mjs',
  '--max-iterations',
  '1'
]

/**
 * `main` holds the real test (add must add); the checked-out `feature` branch weakened it to pass
 * always. `origin/main` and the tag `v1` name the same base; the feature branch is checked out.
 */
function featureRepo(): { repo: string; base: string } {
  const repo = makeRepo(buggyProject())
  const base = sh(repo, ['rev-parse', 'HEAD']).trim()
  sh(repo, ['tag', 'v1'])
  sh(repo, ['update-ref', 'refs/remotes/origin/main', base])
  sh(repo, ['switch', '-q', '-c', 'feature'])
  writeFileSync(path.join(repo, 'test/run.mjs'), "console.log('✓ math adds two numbers')\n")
  sh(repo, ['commit', '-q', '-am', 'weaken the test'])
  // The base branch moves on after the tag and the remote branch: each name is its own commit.
  sh(repo, ['switch', '-q', 'main'])
  writeFileSync(path.join(repo, 'README'), 'later\n')
  sh(repo, ['add', 'README'])
  sh(repo, ['commit', '-q', '-m', 'later on main'])
  sh(repo, ['switch', '-q', 'feature'])
  return { repo, base }
}

describe('--base-ref from a feature branch', () => {
  it.each([['main'], ['origin/main'], ['v1'], ['commit']])(
    'the protected tests come from %s, a name the user repository knows, not from the checked-out branch',
    (form) => {
      const { repo, base } = featureRepo()
      const ref = form === 'commit' ? base : form
      const expected = form === 'main' ? sh(repo, ['rev-parse', 'main']).trim() : base
      const r = cli([...IDLE, '--base-ref', ref, '--temp-dir', tempDir()], repo)
      expect(r.stderr).not.toContain('config-error')
      expect(r.stdout).toContain(`base ${expected.slice(0, 7)} (base-ref ${ref})`)
      expect(r.stdout).not.toContain('stop-reason: verified')
      expect(r.status).not.toBe(exitCodeFor('verified'))
      // The user's repository is as it was: still on feature, with no new ref.
      expect(sh(repo, ['symbolic-ref', '--short', 'HEAD']).trim()).toBe('feature')
    },
    LONG
  )

  it(
    'works from a detached HEAD too, and a fix of the real bug is verified against the base',
    () => {
      const { repo } = featureRepo()
      sh(repo, ['switch', '-q', '--detach', 'feature'])
      const fixing = [
        'run',
        '--agent',
        'command',
        '--agent-command',
        "sed -i 's/a - b/a + b/' src/math.mjs",
        '--prompt',
        'fix',
        '--gate-command',
        'node test/run.mjs'
      ]
      const r = cli([...fixing, '--base-ref', 'main', '--temp-dir', tempDir()], repo)
      expect(r.stdout).toContain('(base-ref main)')
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(exitCodeFor('verified'))
    },
    LONG
  )

  it('a name the repository does not know is a config-error naming --base-ref, before anything runs', () => {
    const { repo } = featureRepo()
    const r = cli([...IDLE, '--base-ref', 'no-such-branch', '--temp-dir', tempDir()], repo)
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('--base-ref no-such-branch')
    expect(r.stdout).not.toContain('iteration 1')
  })
})
