import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { RUN_OPTIONS } from '../src/cli/args.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 180_000

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const FAILING = ['run', '--agent', 'command', '--agent-command', 'date +%N >> notes', '--prompt', 'x', '--gate-command', 'node test/run.mjs']
const FIXING = [
  'run',
  '--agent',
  'command',
  '--agent-command',
  "sed -i 's/a - b/a + b/' src/math.mjs",
  '--prompt',
  'fix add',
  '--gate-command',
  'node test/run.mjs'
]

/** Everything of the user's checkout a run could change: branch, HEAD, index entries, status, file bytes. */
function snapshot(repo: string) {
  return {
    branch: sh(repo, ['symbolic-ref', 'HEAD']),
    refs: sh(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/main']),
    index: sh(repo, ['ls-files', '--stage']),
    status: sh(repo, ['status', '--porcelain=v1', '--untracked-files=all']),
    staged: sh(repo, ['diff', '--cached']),
    unstaged: sh(repo, ['diff']),
    files: ['src/math.mjs', 'staged.txt', 'untracked.txt', 'test/run.mjs'].map((f) => readFileSync(path.join(repo, f)).toString('base64'))
  }
}

describe('the CLI works on a branch of its own', () => {
  it(
    'an escalated run leaves the branch, index and working tree as they were; its commits are on loopgate/<loop-id>',
    () => {
      const repo = makeRepo(buggyProject())
      writeFileSync(path.join(repo, 'src/math.mjs'), 'export function add(a, b) {\n  return a * b // my own edit\n}\n')
      writeFileSync(path.join(repo, 'staged.txt'), 'staged change\n')
      sh(repo, ['add', 'staged.txt'])
      writeFileSync(path.join(repo, 'untracked.txt'), 'untracked\n')
      const before = snapshot(repo)
      const mainBefore = sh(repo, ['rev-parse', 'main']).trim()

      const r = cli([...FAILING, '--temp-dir', tempDir()], repo)
      expect(r.stdout).toContain('stop-reason: same-failure')
      expect(r.status).toBe(exitCodeFor('same-failure'))
      expect(snapshot(repo)).toEqual(before)
      expect(sh(repo, ['rev-parse', 'main']).trim()).toBe(mainBefore)
      expect(sh(repo, ['log', '--format=%s', 'main'])).not.toContain('loopgate: iteration')
      // The run started from the commit, not from the uncommitted edit.
      expect(sh(repo, ['log', '--format=%s', 'main..loopgate/local']).trim().split('\n')).toEqual(['loopgate: iteration 2', 'loopgate: iteration 1'])
      expect(sh(repo, ['show', 'loopgate/local:src/math.mjs'])).toContain('a - b')
      expect(r.stdout).toContain('git log main..loopgate/local')
      expect(r.stdout).toContain('git diff main...loopgate/local')
      expect(r.stdout).toContain('git branch -D loopgate/local')
    },
    LONG
  )

  it(
    'from a subfolder: the repository top is found, the verified work is on loopgate/<loop-id>, main is untouched',
    () => {
      const repo = makeRepo({ ...buggyProject(), 'docs/deep/README': 'docs\n' })
      const mainBefore = sh(repo, ['rev-parse', 'main']).trim()
      const r = cli([...FIXING, '--loop-id', 'fix-add', '--temp-dir', tempDir()], path.join(repo, 'docs', 'deep'))
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(0)
      expect(sh(repo, ['rev-parse', 'main']).trim()).toBe(mainBefore)
      expect(sh(repo, ['show', 'loopgate/fix-add:src/math.mjs'])).toContain('a + b')
      expect(readFileSync(path.join(repo, 'src/math.mjs'), 'utf8')).toContain('a - b')
      expect(r.stdout).toContain('git branch -D loopgate/fix-add')
    },
    LONG
  )

  it('refuses, before any call, to write to a loop branch that is checked out', () => {
    const repo = makeRepo(buggyProject())
    sh(repo, ['switch', '-q', '-c', 'loopgate/local'])
    const calls = path.join(tempDir(), 'calls')
    const r = cli(['run', '--agent', 'command', '--agent-command', `echo call >> ${calls}`, '--prompt', 'x', '--gate-command', 'node test/run.mjs'], repo)
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('loopgate/local is checked out')
    expect(() => lstatSync(calls)).toThrow()
  })
})

describe('help and usage', () => {
  it('loopgate --help is short; loopgate run --help lists every option with a placeholder, in CLI words', () => {
    const main = cli(['--help'], ROOT)
    expect(main.status).toBe(0)
    expect(main.stdout.trim().split('\n').length).toBeLessThanOrEqual(15)
    expect(main.stdout).toContain('--task <task>')
    expect(main.stdout).not.toContain('--max-turns')
    const run = cli(['run', '--help'], ROOT)
    expect(run.status).toBe(0)
    expect(run.stdout).not.toBe(main.stdout)
    expect(run.stdout.split('\n')[0]).toBe('usage: loopgate run --gate-command <cmd> (--prompt <text> | --prompt-file <file> | --task <task>) [options]')
    for (const o of RUN_OPTIONS) expect(run.stdout).toMatch(new RegExp(`^  --${o.name} <[^>]+>`, 'm'))
    expect(run.stdout).not.toMatch(/workflow \+ job|the token's own identity|GITHUB_TOKEN/)
    expect(run.stdout).toContain('.git/loopgate/state/<loop-id>')
    for (const line of run.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(140)
  })

  it('loopgate run without its required options names every missing one', () => {
    const repo = makeRepo(buggyProject())
    const r = cli(['run'], repo)
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('--gate-command <cmd>')
    expect(r.stderr).toContain('--prompt <text>')
    expect(r.stderr).toContain('usage: loopgate run')
    expect(r.stderr).not.toContain("Input 'prompt'")
    const command = cli(['run', '--agent', 'command', '--gate-command', 'true'], repo)
    expect(command.stderr).toContain('--prompt <text>')
    expect(command.stderr).toContain('--agent-command <cmd>')
  })
})

describe('the temp root is private to its user', () => {
  it(
    'folders and symlinks another user planted in the temp dir first are passed over, never written into',
    () => {
      const tmp = tempDir('loopgate-shared-tmp-')
      chmodSync(tmp, 0o1777)
      const elsewhere = tempDir('loopgate-elsewhere-')
      const planted = ['loopgate', 'loopgate-calls', 'loopgate-gate', 'loopgate-state']
      for (const name of planted) {
        mkdirSync(path.join(tmp, name), { mode: 0o777 })
        chmodSync(path.join(tmp, name), 0o777)
        chownSync(path.join(tmp, name), 65534, 65534)
      }
      // The per-user folder's name, planted as a symlink to a folder of ours.
      symlinkSync(elsewhere, path.join(tmp, `loopgate-${process.getuid?.() ?? 0}`))
      const repo = makeRepo(buggyProject())
      const r = cli(FIXING, repo, { TMPDIR: tmp })
      expect(r.stderr).toBe('')
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(0)
      for (const name of planted) expect(readdirSync(path.join(tmp, name))).toEqual([])
      expect(readdirSync(elsewhere)).toEqual([])
    },
    LONG
  )

  it('a RUNNER_TEMP or --temp-dir that does not exist is a config-error that says so', () => {
    const repo = makeRepo(buggyProject())
    const r = cli(FIXING, repo, { RUNNER_TEMP: '/nonexistent/runner-temp' })
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('RUNNER_TEMP /nonexistent/runner-temp does not exist')
    const flag = cli([...FIXING, '--temp-dir', '/nonexistent/temp'], repo)
    expect(flag.status).toBe(exitCodeFor('config-error'))
    expect(flag.stderr).toContain('--temp-dir /nonexistent/temp does not exist')
  })
})

describe('what a run was charged', () => {
  it('a shell agent with no cost report is shown as charged in full, not as spent', () => {
    const repo = makeRepo(buggyProject())
    const r = cli([...FAILING, '--temp-dir', tempDir()], repo)
    expect(r.stdout).toMatch(/^iteration 1: .*charged \$4\.00 \(no cost reported\)/m)
    expect(r.stdout).not.toMatch(/^iteration 1: [^\n]*spent \$4\.00/m)
  })
})
