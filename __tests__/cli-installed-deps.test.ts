import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

const LONG = 180_000

/**
 * A project whose test runner is an installed package (`node_modules/.bin/checker`, untracked and
 * ignored, as `npm ci` leaves it), run by `npm test`.
 */
function installedProject(): string {
  const repo = makeRepo({
    ...buggyProject(),
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', private: true, scripts: { test: 'checker test/run.mjs' } })
  })
  const pkg = path.join(repo, 'node_modules', 'checker')
  mkdirSync(path.join(pkg, 'bin'), { recursive: true })
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'checker', version: '1.0.0', bin: { checker: 'bin/checker.js' } }))
  const runner = "#!/usr/bin/env node\nconst path = await import('node:path')\nawait import(path.resolve(process.argv[2]))\n"
  writeFileSync(path.join(pkg, 'bin', 'checker.js'), runner, { mode: 0o755 })
  mkdirSync(path.join(repo, 'node_modules', '.bin'))
  symlinkSync('../checker/bin/checker.js', path.join(repo, 'node_modules', '.bin', 'checker'))
  return repo
}

describe("the CLI's clone has the project as installed", () => {
  it(
    'the gate runs the installed test runner and the agent sees the installed folder, as in the action',
    () => {
      const repo = installedProject()
      const marks = tempDir()
      const agent = `test -x node_modules/.bin/checker && echo seen > /dev/null; sed -i 's/a - b/a + b/' src/math.mjs`
      const r = cli(['run', '--agent', 'command', '--agent-command', agent, '--prompt', 'x', '--gate-command', 'npm test', '--temp-dir', marks], repo)
      expect(r.stderr).not.toContain('not found')
      expect(r.stdout).toContain("installed dependencies copied into the run's clone: node_modules")
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(exitCodeFor('verified'))
      // The user's own installed folder is as it was.
      expect(readFileSync(path.join(repo, 'node_modules', 'checker', 'package.json'), 'utf8')).toContain('"checker"')
    },
    LONG
  )

  it(
    "the agent's copy is its own: what it writes there never reaches the user's folder",
    () => {
      const repo = installedProject()
      const agent = `test -x node_modules/.bin/checker && touch node_modules/agent-wrote-here && sed -i 's/a - b/a + b/' src/math.mjs`
      const r = cli(
        [
          'run',
          '--agent',
          'command',
          '--agent-command',
          agent,
          '--prompt',
          'x',
          '--gate-command',
          'npm test',
          '--max-iterations',
          '1',
          '--temp-dir',
          tempDir()
        ],
        repo
      )
      expect(r.stdout).toContain('stop-reason: verified')
      expect(() => readFileSync(path.join(repo, 'node_modules', 'agent-wrote-here'))).toThrow()
    },
    LONG
  )
})

describe('a project that was never installed', () => {
  /** The CLI on an installed project whose node_modules is then removed, with `gate` as its gate command. */
  const neverInstalled = (gate: string): { repo: string; r: ReturnType<typeof cli> } => {
    const repo = installedProject()
    spawnSync('rm', ['-rf', path.join(repo, 'node_modules')])
    return { repo, r: cli(['run', '--agent', 'command', '--agent-command', 'true', '--prompt', 'x', '--gate-command', gate, '--temp-dir', tempDir()], repo) }
  }

  it(
    'a gate that cannot find its program names the folder that was not there and the one-line fix',
    () => {
      const { repo, r } = neverInstalled('npm test')
      expect(r.status).toBe(exitCodeFor('gate-broken'))
      expect(r.stderr).toContain(`${path.join(repo, 'node_modules')} was not there`)
      expect(r.stderr).toContain("--gate-setup 'npm ci'")
      expect(r.stdout).not.toMatch(/^iteration 1/m)
    },
    LONG
  )

  it(
    'a gate that ran but could not be counted is not blamed on the missing install',
    () => {
      const { r } = neverInstalled('true')
      expect(r.status).toBe(exitCodeFor('gate-broken'))
      expect(r.stderr).toContain('no test count could be read from the gate on the base')
      expect(r.stderr).not.toContain('was not there')
    },
    LONG
  )
})
