import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { INPUT_SPECS } from '../src/contract.js'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('the local CLI (dist/cli.js)', () => {
  it('--help lists every option with its default, and the exit statuses', () => {
    const r = cli(['--help'], ROOT)
    expect(r.status).toBe(0)
    for (const spec of INPUT_SPECS) {
      if (['github-token', 'dry-run', 'on-success', 'on-escalate', 'escalate-to', 'labels', 'reviewers', 'draft', 'max-open-prs', 'max-runs-per-pr', 'allow-pull-request-target', 'comment-command'].includes(spec.name)) continue
      const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`--${spec.name} `))
      expect(line).toBeDefined()
      if (spec.default !== undefined) expect(line).toContain(`[default: ${spec.default}]`)
    }
    expect(r.stdout).toMatch(/ 16 {2}same-failure/)
  })

  it('runs the loop on a repository, writes the would-be PR body, and exits 0 on verified', () => {
    const repo = makeRepo(buggyProject())
    const out = tempDir()
    const r = cli(['run', '--agent', 'command', '--agent-command', "sed -i 's/a - b/a + b/' src/math.mjs", '--prompt', 'fix add', '--gate-command', 'node test/run.mjs', '--temp-dir', out], repo)
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('iteration 1: verified')
    expect(r.stdout).toContain('stop-reason: verified')
    const body = /would publish: (.+)/.exec(r.stdout)?.[1] ?? ''
    expect(existsSync(body)).toBe(true)
    expect(readFileSync(body, 'utf8')).toContain('loopgate: verified')
  })

  it('exits with the status of its stop reason', () => {
    const repo = makeRepo(buggyProject())
    const r = cli(['run', '--agent', 'command', '--agent-command', 'date +%N >> notes', '--prompt', 'x', '--gate-command', 'node test/run.mjs', '--temp-dir', tempDir()], repo)
    expect(r.stdout).toContain('stop-reason: same-failure')
    expect(r.status).toBe(exitCodeFor('same-failure'))
  })

  it('refuses bad input with config-error and a usage error for unknown options', () => {
    const repo = makeRepo(buggyProject())
    const bad = cli(['run', '--agent', 'command', '--agent-command', 'true', '--prompt', 'x', '--gate-command', 'true', '--max-iterations', '-1'], repo)
    expect(bad.status).toBe(exitCodeFor('config-error'))
    expect(bad.stderr).toContain("Input 'max-iterations'")
    expect(cli(['run', '--max-iteration', '3'], repo).status).toBe(2)
  })
})
