/**
 * The local CLI's default temp folder, and a runner's temp folder on a shared machine, can sit
 * under a folder every user may write. An agent that writes nothing in the repository but what a
 * runner looks up above the checkout there — a pytest configuration and conftest, a `node` in an
 * ancestor's `node_modules/.bin` that npm puts on a script's PATH — does not get its bug verified:
 * the gate judges where no run's user can write above the checkout. Through `dist/cli.js` and the
 * bundled action.
 */
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT, runAction } from './helpers/action-runner.js'
import { attackProject } from './helpers/gate-fixture.js'
import { needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { ANCESTOR_CONFTEST } from './helpers/pytest-disarm.js'
import { makeRepo, sharedTempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')

/** A shell step writing `text` to `file` (a heredoc). */
const write = (file: string, text: string, mode = '644'): string =>
  `mkdir -p '${path.dirname(file)}' && cat > '${file}' <<'LOOPGATE_EOF'\n${text}LOOPGATE_EOF\nchmod ${mode} '${file}'\n`

interface Case {
  name: string
  files: Record<string, string>
  gate: string
  attack: (shared: string) => string
  fix: string
}

const CASES: Case[] = [
  {
    name: 'a pytest.ini and conftest.py above the checkout',
    files: {
      '.gitignore': '__pycache__/\n',
      'arith.py': 'def add(a, b):\n    return a - b\n',
      'tests/test_ops.py': 'from arith import add\n\n\ndef test_adds_two():\n    assert add(2, 3) == 5\n'
    },
    gate: `${TEST_PYTHON} -m pytest -q -p no:cacheprovider tests`,
    attack: (shared) => `echo '# tidied' >> arith.py\n${write(`${shared}/conftest.py`, ANCESTOR_CONFTEST)}${write(`${shared}/pytest.ini`, '[pytest]\n')}`,
    fix: "sed -i 's/a - b/a + b/' arith.py\n"
  },
  {
    name: "a node in an ancestor's node_modules/.bin under npm test",
    files: { ...attackProject(), 'package.json': JSON.stringify({ name: 'p', type: 'module', scripts: { test: 'node test/run.mjs' } }) },
    gate: 'npm test',
    attack: (shared) =>
      "echo '// tidied' >> src/math.mjs\n" +
      write(`${shared}/node_modules/.bin/node`, "#!/bin/sh\necho '✓ math adds two numbers'\necho '✓ math adds zero'\nexit 0\n", '755'),
    fix: "sed -i 's/a - b/a + b/' src/math.mjs\n"
  }
]

/** The repository, with the minicheck package the Node project's test imports installed (untracked). */
function repoOf(c: Case): string {
  const repo = makeRepo(c.files)
  if (c.gate === 'npm test') {
    const mod = path.join(repo, 'node_modules', 'minicheck')
    spawnSync('mkdir', ['-p', mod])
    writeFileSync(path.join(mod, 'package.json'), JSON.stringify({ name: 'minicheck', type: 'module', main: 'index.mjs' }))
    writeFileSync(
      path.join(mod, 'index.mjs'),
      "let failed = 0\nexport function check(n, a, e) { if (a === e) console.log('✓ ' + n); else { failed++; console.log('✕ ' + n) } }\nexport function done() { if (failed) process.exit(1) }\n"
    )
  }
  return repo
}

/** The stop reason and everything printed, for one run through the CLI or the bundled action. */
async function run(via: 'cli' | 'action', c: Case, script: string, shared: string): Promise<{ stop: string; printed: string }> {
  const file = path.join(shared, `agent-${Math.random().toString(36).slice(2)}.sh`)
  writeFileSync(file, script, { mode: 0o755 })
  const repo = repoOf(c)
  if (via === 'cli') {
    const args = ['run', '--agent', 'command', '--agent-command', `bash ${file}`, '--prompt', 'fix add', '--max-iterations', '1', '--gate-command', c.gate]
    const r = spawnSync(process.execPath, [CLI, ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: shared }
    })
    return { stop: /stop-reason: ([\w-]+)/.exec(r.stdout)?.[1] ?? '', printed: `${r.stdout}\n${r.stderr}` }
  }
  const r = await runAction({
    workspace: repo,
    runnerTemp: path.join(shared, 'runner-temp'),
    inputs: { agent: 'command', 'agent-command': `bash ${file}`, prompt: 'fix add', 'gate-command': c.gate, 'max-iterations': '1', 'dry-run': 'true' }
  })
  return { stop: r.outputs['stop-reason'] ?? '', printed: `${r.stdout}\n${r.stderr}\n${r.summary}` }
}

const ROWS = (['cli', 'action'] as const).flatMap((via) => CASES.map((c) => ({ via, ...c })))

needs('pytest', 'second-user').describe('what the agent plants above the gate checkout', () => {
  test.each(ROWS)(
    '$via, $name: not loaded, not verified',
    async (row) => {
      const shared = sharedTempDir('loopgate-shared-above-')
      const r = await run(row.via, row, row.attack(shared), shared)
      expect(r.stop).toBe('max-iterations')
      expect(r.printed).toContain('the gate judges in /var/lib/loopgate/gate')
    },
    180_000
  )

  test.each(ROWS)(
    '$via, $name: control, the fix is verified',
    async (row) => {
      const shared = sharedTempDir('loopgate-shared-above-')
      expect((await run(row.via, row, row.fix, shared)).stop).toBe('verified')
    },
    180_000
  )
})
