/**
 * The local CLI commits through the same publishable tree as the action: a run whose agent
 * rewrites a protected test and adds a workflow leaves neither on the branch it committed to.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT, workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const BASE_TEST = buggyProject()['test/run.mjs']

test('a CLI run: the committed branch has the base’s protected test and no workflow, with the agent’s fix', () => {
  const repo = makeRepo(buggyProject())
  const base = sh(repo, ['rev-parse', 'HEAD']).trim()
  const agent = [
    "sed -i 's/a - b/a + b/' src/math.mjs",
    `printf "console.log('✓ math adds two numbers')\\n" > test/run.mjs`,
    'mkdir -p .github/workflows',
    "printf 'on: push\\n' > .github/workflows/evil.yml"
  ].join('; ')
  const args = ['run', '--agent', 'command', '--agent-command', agent, '--prompt', 'fix add', '--gate-command', 'node test/run.mjs']
  const r = spawnSync(process.execPath, [CLI, ...args, '--protected-paths', '!.github/workflows/**', '--temp-dir', tempDir()], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOOPGATE_AGENT_USER: workerAgentUser() }
  })
  expect(r.stdout).toContain('stop-reason: verified')
  // The CLI's work is on its own branch; the checked-out one is as it was.
  const work = 'loopgate/local'
  expect(sh(repo, ['rev-parse', 'HEAD']).trim()).toBe(base)
  const files = sh(repo, ['ls-tree', '-r', '--name-only', work]).split('\n').filter(Boolean)
  expect({ test: sh(repo, ['show', `${work}:test/run.mjs`]), workflows: files.filter((f) => f.startsWith('.github')) }).toEqual({
    test: BASE_TEST,
    workflows: []
  })
  expect(sh(repo, ['show', `${work}:src/math.mjs`])).toContain('a + b')
  expect(sh(repo, ['log', '--format=%H', `${base}..${work}`, '--', 'test/run.mjs', '.github']).trim()).toBe('')
})
