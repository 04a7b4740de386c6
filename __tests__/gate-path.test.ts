import { spawnSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sharedTempDir, tempDir } from './helpers/repo.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 180_000
const isRoot = process.getuid?.() === 0
const PLAIN_PATH = `${path.dirname(process.execPath)}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`

function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { HOME: process.env.HOME, ...env } })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, all: `${r.stdout}\n${r.stderr}` }
}

/** A folder only root can enter, as a toolchain under /root is. */
function privateDir(): string {
  const dir = tempDir('loopgate-root-only-')
  chmodSync(dir, 0o700)
  return dir
}

describe("the gate user's PATH", () => {
  ;(isRoot ? it : it.skip)(
    'holds only folders the gate user can enter: a test that expects ENOENT for a missing program gets it; no note about unreachable folders',
    () => {
      const files = buggyProject()
      files['test/run.mjs'] = [
        "import { spawnSync } from 'node:child_process'",
        "import { add } from '../src/math.mjs'",
        "const code = spawnSync('loopgate-no-such-program').error?.code",
        "if (code !== 'ENOENT') { console.log('✕ a missing program is ENOENT'); console.log('  got ' + code); process.exit(1) }",
        "console.log('✓ a missing program is ENOENT')",
        "if (add(2, 3) !== 5) { console.log('✕ math adds two numbers'); process.exit(1) }",
        "console.log('✓ math adds two numbers')",
        ''
      ].join('\n')
      const repo = makeRepo(files)
      const hidden = privateDir()
      const r = cli(
        ['run', '--agent', 'command', '--agent-command', "sed -i 's/a - b/a + b/' src/math.mjs", '--prompt', 'fix add', '--gate-command', 'node test/run.mjs'],
        repo,
        { PATH: `${hidden}:${PLAIN_PATH}` }
      )
      expect(r.all).not.toContain('got EACCES')
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(0)
      expect(r.all).not.toContain('cannot reach')
    },
    LONG
  )

  ;(isRoot ? it : it.skip)(
    "a gate program installed only under a folder the gate user cannot enter: gate-broken saying so, not 'Permission denied', before any call",
    () => {
      const repo = makeRepo({ ...buggyProject(), 'package.json': JSON.stringify({ name: 'p', packageManager: 'pnpm@9.12.0' }) })
      const hidden = privateDir()
      writeFileSync(path.join(hidden, 'pnpm'), '#!/bin/sh\nexec node test/run.mjs\n', { mode: 0o755 })
      const marks = sharedTempDir()
      const r = cli(['run', '--agent', 'command', '--agent-command', `echo call >> ${marks}/calls`, '--prompt', 'x', '--gate-command', 'pnpm test'], repo, {
        PATH: `${hidden}:${PLAIN_PATH}`
      })
      expect(r.status).toBe(exitCodeFor('gate-broken'))
      expect(r.all).toContain(`its program \`pnpm\` is installed only where other users cannot reach it (${path.join(hidden, 'pnpm')})`)
      expect(r.all).not.toMatch(/Permission denied/i)
      expect(spawnSync('test', ['-e', path.join(marks, 'calls')]).status).not.toBe(0)
    },
    LONG
  )
})
