import { ACTION_ONLY } from '../src/cli/args.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseCommand } from '../src/cli/args.js'
import { runCli } from '../src/cli/run-cli.js'
import { INPUT_SPECS } from '../src/contract.js'
import { adviceFor, failingTestLines } from '../src/cli/failing-tests.js'
import { exitCodeFor, stopReasonEntry } from '../src/loop/stop-reasons.js'
import type { IterationRecord } from '../src/loop/engine-types.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { cli } from './helpers/cli-run.js'

describe('the local CLI (dist/cli.js)', () => {
  it('run --help lists every option with its default, and the exit statuses', () => {
    const r = cli(['run', '--help'], ROOT)
    expect(r.status).toBe(0)
    for (const spec of INPUT_SPECS) {
      if (ACTION_ONLY.has(spec.name)) continue
      const line = r.stdout.split('\n').find((l) => l.trimStart().startsWith(`--${spec.name} `))
      expect(line).toBeDefined()
      if (spec.default !== undefined) expect(line).toContain(`[default: ${spec.default}]`)
    }
    expect(r.stdout).toMatch(/ 16 {2}same-failure/)
  })

  it('runs the loop on a repository, writes the would-be PR body, and exits 0 on verified', () => {
    const repo = makeRepo(buggyProject())
    const out = tempDir()
    const r = cli(
      [
        'run',
        '--agent',
        'command',
        '--agent-command',
        "sed -i 's/a - b/a + b/' src/math.mjs",
        '--prompt',
        'fix add',
        '--gate-command',
        'node test/run.mjs',
        '--temp-dir',
        out
      ],
      repo
    )
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('iteration 1: verified')
    expect(r.stdout).toContain('stop-reason: verified')
    const body = /would publish: (.+)/.exec(r.stdout)?.[1] ?? ''
    expect(existsSync(body)).toBe(true)
    expect(readFileSync(body, 'utf8')).toContain('loopgate: verified')
  })

  it('exits with the status of its stop reason', () => {
    const repo = makeRepo(buggyProject())
    const r = cli(
      ['run', '--agent', 'command', '--agent-command', 'date +%N >> notes', '--prompt', 'x', '--gate-command', 'node test/run.mjs', '--temp-dir', tempDir()],
      repo
    )
    expect(r.stdout).toContain('stop-reason: same-failure')
    expect(r.status).toBe(exitCodeFor('same-failure'))
  })

  it('refuses bad input with config-error and a usage error for unknown options', () => {
    const repo = makeRepo(buggyProject())
    const bad = cli(['run', '--agent', 'command', '--agent-command', 'true', '--prompt', 'x', '--gate-command', 'true', '--max-iterations', '-1'], repo)
    expect(bad.status).toBe(exitCodeFor('config-error'))
    expect(bad.stderr).toContain('--max-iterations has the value')
    expect(cli(['run', '--max-iteration', '3'], repo).status).toBe(2)
  })
})

/** The CLI's entry point from the sources, with its output captured. */
async function run(argv: string[]) {
  let stdout = ''
  let stderr = ''
  const status = await runCli(argv, {
    out: (t) => (stdout += t),
    err: (t) => (stderr += t),
    isTTY: false,
    env: { PATH: process.env.PATH, HOME: process.env.HOME }
  })
  return { status, stdout, stderr }
}

const COMMAND_RUN = [
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

describe('the command line (src)', () => {
  it('an option with no value is a usage error naming it, never "true"', async () => {
    const r = await run([...COMMAND_RUN, '--max-iterations'])
    expect(r.status).toBe(2)
    expect(r.stderr).toContain('option --max-iterations needs a value')
    const before = await run(['run', '--max-iterations', '--prompt', 'x', '--gate-command', 'true'])
    expect(before.status).toBe(2)
    expect(before.stderr).toContain('option --max-iterations needs a value')
  })

  it('a value that starts with a dash is read as the value', async () => {
    const cmd = parseCommand(['run', '--agent-args', '--model x', '--prompt=-p'])
    expect(cmd).toEqual({
      kind: 'run',
      flags: new Map([
        ['agent-args', '--model x'],
        ['prompt', '-p']
      ])
    })
    // Read as agent-args, a refused flag there is refused by the input check, not by the parser.
    const repo = makeRepo(buggyProject())
    const r = await run([
      'run',
      '--agent',
      'claude',
      '--agent-args',
      '--resume abc',
      '--prompt',
      'x',
      '--gate-command',
      'true',
      '--workspace',
      repo,
      '--temp-dir',
      tempDir()
    ])
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.stderr).toContain('--agent-args has the value')
  })

  it('run -h and run --help print the run help and exit 0', async () => {
    for (const argv of [
      ['run', '-h'],
      ['run', '--help'],
      ['run', '--prompt', 'x', '--help']
    ]) {
      const r = await run(argv)
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('usage: loopgate run --gate-command <cmd>')
      expect(r.stdout).toContain('--max-iterations <n>')
    }
    for (const argv of [['--help'], ['-h']]) {
      const r = await run(argv)
      expect(r.status).toBe(0)
      expect(r.stdout).toContain('usage: loopgate run --gate-command <cmd>')
      expect(r.stdout).toContain('loopgate run --help')
    }
  })

  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
    const r = await run(['--version'])
    expect(r.status).toBe(0)
    expect(r.stdout).toBe(`${version}\n`)
  })

  it('unknown options, stray arguments, repeats, action-only inputs and unknown commands are usage errors', async () => {
    const cases: [string[], string][] = [
      [['run', '--max-iteration', '3'], 'unknown option --max-iteration'],
      [['run', '-x'], 'unknown option -x'],
      [['run', 'fix', 'it'], 'unexpected argument: fix'],
      [['run', '--prompt', 'a', '--prompt', 'b'], 'option --prompt is given 2 times'],
      [['run', '--labels', 'x'], '--labels is an action input'],
      [['run', '--help=yes'], 'takes no value'],
      [['fix'], 'unknown command "fix"'],
      [[], 'no command given']
    ]
    for (const [argv, message] of cases) {
      const r = await run(argv)
      expect([argv, r.status]).toEqual([argv, 2])
      expect(r.stderr).toContain(message)
      expect(r.stderr).toContain('usage: loopgate run')
    }
  })

  it('a folder that is not a git repository is a config-error with a clear message', async () => {
    const dir = tempDir()
    writeFileSync(path.join(dir, 'README'), 'not a repository\n')
    const r = await run([...COMMAND_RUN, '--workspace', dir, '--temp-dir', tempDir()])
    expect(r.status).toBe(exitCodeFor('config-error'))
    expect(r.status).toBe(23)
    expect(r.stderr).toBe(`config-error: ${dir} is not inside a git repository: run loopgate in a repository, or point --workspace at one\n`)
    expect(r.stdout).toContain('stop-reason: config-error')
  })

  it('--workspace naming a missing folder says so', async () => {
    const r = await run([...COMMAND_RUN, '--workspace', '/nonexistent/loopgate', '--temp-dir', tempDir()])
    expect(r.status).toBe(23)
    expect(r.stderr).toContain('config-error: /nonexistent/loopgate does not exist')
    const file = path.join(tempDir(), 'file')
    writeFileSync(file, '')
    const notDir = await run([...COMMAND_RUN, '--workspace', file, '--temp-dir', tempDir()])
    expect(notDir.status).toBe(23)
    expect(notDir.stderr).toContain(`${file} is not a folder`)
  })

  it('a same-failure run prints the failing tests it tells the user to read', async () => {
    const repo = makeRepo(buggyProject())
    const r = await run([...COMMAND_RUN.slice(0, 4), 'date +%N >> notes', ...COMMAND_RUN.slice(5), `--workspace=${repo}`, `--temp-dir=${tempDir()}`])
    expect(r.stdout).toContain('stop-reason: same-failure')
    expect(r.stdout).toContain('Read the failing tests below')
    const list = r.stdout.slice(r.stdout.indexOf('Read the failing tests below'))
    expect(list).toMatch(/\nfailing tests \(1\):\n {2}✕ math adds two numbers: expected 5, got -1\n/)
  })

  it('the end-of-run list names at most ten failing tests; with none to list, the advice points at the attempt log', () => {
    const failures = Array.from({ length: 12 }, (_, i) => ({ id: `t${i}`, message: `\n  expected ${i}\nmore` }))
    const record = { gate: { passed: false, failures } } as unknown as IterationRecord
    const lines = failingTestLines([record])
    expect(lines[0]).toBe('failing tests (12):')
    expect(lines[1]).toBe('  ✕ t0: expected 0')
    expect(lines.slice(1, -1)).toHaveLength(10)
    expect(lines[lines.length - 1]).toBe('  … and 2 more in the attempt log')
    const action = stopReasonEntry('same-failure').action
    expect(action).toContain('Read the failing tests below')
    expect(adviceFor(action, false)).not.toContain('below')
    expect(adviceFor(action, false)).toContain("Read the gate's output in the attempt log")
  })

  it('a run from the sources with --name=value options ends verified with exit 0', async () => {
    const repo = makeRepo(buggyProject())
    const r = await run([...COMMAND_RUN, `--workspace=${repo}`, `--temp-dir=${tempDir()}`, '--max-iterations=2'])
    expect(r.stdout).toContain('stop-reason: verified')
    expect(r.status).toBe(0)
  })
})
