/**
 * The gate run's write layer through the CLI (dist/cli.js) and the bundled action (dist/index.js):
 * a suite whose gate-setup builds into its own tree (an output folder, a version file, a cache inside
 * node_modules) verifies the correct fix, and nothing it wrote reaches the workspace or the
 * pushed branch; code that the build loads and that replaces a test file during the gate run is
 * tampering, named. Needs root (overlayfs in a mount namespace, a separate gate user) and dist/
 * built (`npm run package`).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { bareRemote, checkoutOf } from './helpers/bare-remote.js'
import { ROOT, runAction } from './helpers/action-runner.js'
import { makeRepo, tempDir } from './helpers/repo.js'
import { startGitHubServer, type GitHubServer } from './github-server/server.js'

const CLI = path.join(ROOT, 'dist', 'cli.js')
const LONG = 240_000
const TOKEN = 'ghs_writeLayerDistToken0000000000000001'

/** The build the gate runs first: an output folder, a version file next to the sources, a cache in node_modules. */
const BUILD = [
  "const fs = require('node:fs')",
  "fs.mkdirSync('dist', { recursive: true })",
  // The build loads the code it builds (a generator's entry point, say).
  "if (typeof require('./src/math.js').add !== 'function') process.exit(1)",
  "fs.copyFileSync('src/math.js', 'dist/math.js')",
  "fs.writeFileSync('src/_version.js', \"exports.version = '1.0.0'\\n\")",
  "fs.mkdirSync('node_modules/.cache/build', { recursive: true })",
  "fs.writeFileSync('node_modules/.cache/build/stamp', String(Date.now()))",
  ''
].join('\n')

const TEST = [
  "const test = require('node:test')",
  "const assert = require('node:assert')",
  "const { add } = require('../dist/math.js')",
  "const { version } = require('../src/_version.js')",
  "test('adds two numbers', () => assert.strictEqual(add(2, 3), 5))",
  "test('adds zero', () => assert.strictEqual(add(0, 0), 0))",
  "test('has a version', () => assert.strictEqual(version, '1.0.0'))",
  ''
].join('\n')

const FILES: Record<string, string> = {
  '.gitignore': 'dist/\nnode_modules/\nsrc/_version.js\n',
  'build.js': BUILD,
  'src/math.js': 'exports.add = (a, b) => a - b\n',
  'test/math.test.js': TEST
}

const SETUP = 'node build.js'
const GATE = 'node --test test/'
const FIX = "sed -i 's/a - b/a + b/' src/math.js"
const BUILT = ['dist/math.js', 'src/_version.js', 'node_modules/.cache/build/stamp']

/** The agent's cheat: the fix left out, the code replaces the test file when the build loads it. */
function cheat(): string {
  const dir = tempDir('loopgate-agent-files-')
  chmodSync(dir, 0o755)
  const file = path.join(dir, 'math.js')
  const forged = 'process.exit(0)'
  const code = [
    'exports.add = (a, b) => a - b',
    "const fs = require('node:fs')",
    "fs.rmSync('test/math.test.js')",
    `fs.writeFileSync('test/math.test.js', "${forged}")`
  ]
  writeFileSync(file, `${code.join('\n')}\n`, { mode: 0o644 })
  return `cp ${file} src/math.js`
}

const root = process.getuid?.() === 0

;(root ? describe : describe.skip)('the write layer through dist/', () => {
  function loopgate(repo: string, agentCommand: string): string {
    const args = ['run', '--agent', 'command', '--agent-command', agentCommand, '--prompt', 'fix add', '--gate-setup', SETUP, '--gate-command', GATE]
    const r = spawnSync(process.execPath, [CLI, ...args, '--max-iterations', '1', '--temp-dir', tempDir()], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8' },
      timeout: LONG
    })
    return `${r.stdout}\n${r.stderr}`
  }

  test(
    "CLI: a build into the suite's own tree verifies the fix and leaves nothing in the workspace; a test file rewritten during the run is tampering, named",
    () => {
      const repo = makeRepo(FILES)
      const fixed = loopgate(repo, FIX)
      expect(fixed).toMatch(/stop-reason: verified/)
      for (const f of BUILT) expect(existsSync(path.join(repo, f))).toBe(false)

      const refused = loopgate(makeRepo(FILES), cheat())
      expect(refused).not.toMatch(/stop-reason: verified/)
      expect(refused).toContain('test/math.test.js (written by the gate run')
    },
    LONG
  )

  describe('the bundled action', () => {
    let gh: GitHubServer
    beforeEach(async () => {
      gh = await startGitHubServer({ token: TOKEN })
    })
    afterEach(async () => {
      await gh.close()
      expect(gh.violations).toEqual([])
    })

    const run = async (agentCommand: string): Promise<{ outputs: Record<string, string>; bare: string }> => {
      const { server, bare } = bareRemote(FILES)
      const r = await runAction({
        workspace: checkoutOf(bare),
        eventName: 'schedule',
        event: { schedule: '0 3 * * *' },
        env: { GITHUB_API_URL: gh.url, GITHUB_SERVER_URL: `file://${server}`, GITHUB_REF: 'refs/heads/main' },
        inputs: {
          agent: 'command',
          prompt: 'Make add() return the sum of its two arguments.',
          'agent-command': agentCommand,
          'gate-setup': SETUP,
          'gate-command': GATE,
          'github-token': TOKEN,
          'call-budget-usd': '0.01',
          'spend-ceiling-usd': '1',
          'max-iterations': '1',
          'loop-id': 'adder'
        }
      })
      return { outputs: r.outputs, bare }
    }

    test(
      'verifies the fix with nothing the build wrote in the pull request',
      async () => {
        const fixed = await run(FIX)
        expect(fixed.outputs['stop-reason']).toBe('verified')
        expect(gh.pulls).toHaveLength(1)
        const files = execFileSync('git', ['ls-tree', '-r', '--name-only', `refs/heads/${gh.pulls[0].head}`], { cwd: fixed.bare, encoding: 'utf8' }).split('\n')
        expect(files).toContain('src/math.js')
        for (const f of BUILT) expect(files).not.toContain(f)
      },
      LONG
    )

    test(
      'refuses the test file replaced during the gate run, named in the escalation',
      async () => {
        const refused = await run(cheat())
        expect(refused.outputs['stop-reason']).not.toBe('verified')
        expect(gh.pulls).toHaveLength(0)
        expect(gh.issues).toHaveLength(1)
        expect(gh.issues[0].body).toContain('test/math.test.js (written by the gate run')
      },
      LONG
    )
  })
})
