import { exitCodeFor } from '../src/loop/stop-reasons.js'
import { makeRepo } from './helpers/repo.js'
import { runWithCommandAgent } from './helpers/cli-run.js'

const LONG = 180_000

/**
 * A suite like a release tool's: a test commits in a repository it makes (relying on the global git
 * identity a developer or CI has), another sets its own identity there and reads it back; the
 * third is the bug.
 */
function committingProject(): string {
  return makeRepo({
    'package.json': JSON.stringify({ name: 'p', version: '1.0.0', private: true, scripts: { test: 'node test/run.mjs' } }),
    'src/math.mjs': 'export function add(a, b) {\n  return a - b\n}\n',
    'test/run.mjs': [
      "import { execFileSync } from 'node:child_process'",
      "import { mkdtempSync } from 'node:fs'",
      "import os from 'node:os'",
      "import path from 'node:path'",
      "import { add } from '../src/math.mjs'",
      'let failed = false',
      'const check = (name, fn) => { try { fn(); console.log(`✓ ${name}`) } catch (e) { failed = true; console.log(`✕ ${name}`); console.log(`  ${String(e.message).split("\\n")[0]}`) } }',
      "const git = (cwd, ...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })",
      "const fresh = () => { const d = mkdtempSync(path.join(os.tmpdir(), 'repo-')); git(d, 'init', '-q'); return d }",
      "check('commits in a repository it makes', () => { const d = fresh(); git(d, 'commit', '-q', '--allow-empty', '-m', 'x'); git(d, 'rev-parse', 'HEAD') })",
      "check('its own identity wins', () => { const d = fresh(); git(d, 'config', 'user.name', 'Own Name'); git(d, 'config', 'user.email', 'own@example.com'); git(d, 'commit', '-q', '--allow-empty', '-m', 'x'); const who = git(d, 'log', '-1', '--format=%an').trim(); if (who !== 'Own Name') throw new Error('author ' + who) })",
      "check('math adds two numbers', () => { if (add(2, 3) !== 5) throw new Error('expected 5, got ' + add(2, 3)) })",
      'if (failed) process.exit(1)',
      ''
    ].join('\n')
  })
}

describe("the gate's git identity", () => {
  it(
    'a suite that commits in repositories it makes passes in the gate, and the correct fix is verified',
    () => {
      const repo = committingProject()
      const fix = "sed -i 's/a - b/a + b/' src/math.mjs"
      const r = runWithCommandAgent(repo, fix, 'npm test')
      expect(r.stdout).not.toContain('commits in a repository it makes:')
      expect(r.stdout).toContain('stop-reason: verified')
      expect(r.status).toBe(exitCodeFor('verified'))
    },
    LONG
  )
})
