/**
 * The one tree loopgate publishes, on a real repository: each rule on its own, then the same tree
 * through the commit path (GitWorkspace) every caller uses.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { publishRulesOf } from '../src/gate/baseline/publish-rules.js'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { recordPreRunFiles } from '../src/git/pre-run-files.js'
import { publishableTree, type PublishRules, type TreeSource } from '../src/git/publishable-tree.js'
import { GitRepository } from '../src/git/repository.js'
import { GitWorkspace } from '../src/git/workspace.js'
import { DEFAULT_PROTECTED_PATHS } from '../src/gate/protection/protection-defaults.js'
import { buggyProject, makeRepo, sh } from './helpers/repo.js'

const BASE_TEST = buggyProject()['test/run.mjs']
const PROGRESS = '.loopgate/progress.md'

function project(): string {
  return makeRepo({
    ...buggyProject(),
    'test/other.mjs': 'console.log("other")\n',
    '.github/workflows/ci.yml': 'on: push\n',
    '.gitignore': 'build/\n*.log\n'
  })
}

async function rulesFor(dir: string, patterns: readonly string[] = DEFAULT_PROTECTED_PATHS): Promise<PublishRules> {
  return publishRulesOf(await BaseSnapshot.take(GitRepository.plain(dir), sh(dir, ['rev-parse', 'HEAD']).trim(), { paths: new ProtectedPaths(patterns) }))
}

/** loopgate's git on a plain repository, with the pre-run record taken now (before the "agent"). */
async function sourceFor(dir: string): Promise<TreeSource> {
  const preRun = await recordPreRunFiles(GitRepository.plain(dir))
  return {
    dir,
    repo: async () => GitRepository.plain(dir),
    head: async () => sh(dir, ['rev-parse', 'HEAD']).trim(),
    progressFile: PROGRESS,
    preRun: async () => preRun
  }
}

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}

/** path → blob text of a tree. */
function treeFiles(dir: string, tree: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of sh(dir, ['ls-tree', '-r', '-z', tree]).split('\0').filter(Boolean)) {
    const [meta, file] = line.split('\t')
    out.set(file, meta.includes(' commit ') ? '<gitlink>' : sh(dir, ['cat-file', 'blob', meta.split(' ')[2]]))
  }
  return out
}

describe('publishableTree', () => {
  test('a protected file edited, added and deleted: the tree and the workspace have the base’s protected paths; the source edit stays', async () => {
    const dir = project()
    const source = await sourceFor(dir)
    write(dir, 'src/math.mjs', 'export function add(a, b) {\n  return a + b\n}\n')
    write(dir, 'test/run.mjs', 'console.log("✓ math adds two numbers")\n')
    write(dir, 'test/extra.mjs', 'console.log("✓ always")\n')
    rmSync(path.join(dir, 'test/other.mjs'))
    const result = await publishableTree(source, await rulesFor(dir))
    const files = treeFiles(dir, result.tree)
    expect(files.get('test/run.mjs')).toBe(BASE_TEST)
    expect(files.get('test/other.mjs')).toBe('console.log("other")\n')
    expect(files.has('test/extra.mjs')).toBe(false)
    expect(files.get('src/math.mjs')).toContain('a + b')
    expect(result.reverted.map((t) => t.path).sort()).toEqual(['test/extra.mjs', 'test/other.mjs', 'test/run.mjs'])
    expect(readFileSync(path.join(dir, 'test/run.mjs'), 'utf8')).toBe(BASE_TEST)
    expect(existsSync(path.join(dir, 'test/extra.mjs'))).toBe(false)
    expect(result.notes.join('\n')).toContain('test/run.mjs (modified)')
  })

  test('a workflow added or changed never reaches the tree, even with .github/workflows/** removed from the protected paths', async () => {
    const dir = project()
    const source = await sourceFor(dir)
    write(dir, '.github/workflows/evil.yml', 'on: push\njobs: { x: { runs-on: ubuntu-latest, steps: [ { run: env } ] } }\n')
    write(dir, '.github/workflows/ci.yml', 'on: [push, pull_request_target]\n')
    write(dir, '.github/CODEOWNERS', '* @someone\n')
    write(dir, 'src/math.mjs', 'export const x = 1\n')
    const result = await publishableTree(source, await rulesFor(dir, [...DEFAULT_PROTECTED_PATHS, '!.github/workflows/**']))
    const files = treeFiles(dir, result.tree)
    expect(files.has('.github/workflows/evil.yml')).toBe(false)
    expect(files.get('.github/workflows/ci.yml')).toBe('on: push\n')
    expect(files.get('.github/CODEOWNERS')).toBe('* @someone\n')
    expect(files.get('src/math.mjs')).toBe('export const x = 1\n')
    expect(result.notes.join('\n')).toContain('workflow files are never committed')
    // Not protected here: the workflow edits stay in the workspace, out of the tree.
    expect(existsSync(path.join(dir, '.github/workflows/evil.yml'))).toBe(true)
  })

  test('the workflow folder replaced by a link to a folder of the agent’s: the base’s workflows stay, no link goes in', async () => {
    const dir = project()
    const source = await sourceFor(dir)
    write(dir, 'evil/evil.yml', 'on: push\n')
    rmSync(path.join(dir, '.github/workflows'), { recursive: true })
    symlinkSync('../evil', path.join(dir, '.github/workflows'))
    const result = await publishableTree(source, await rulesFor(dir, ['!.github/workflows/**']))
    const files = treeFiles(dir, result.tree)
    expect(files.get('.github/workflows/ci.yml')).toBe('on: push\n')
    expect(sh(dir, ['ls-tree', result.tree, '.github/']).trim()).toMatch(/^040000 tree /)
    expect(files.get('evil/evil.yml')).toBe('on: push\n')
  })

  test('a nested repository and ignored files stay out; the progress file too', async () => {
    const dir = project()
    write(dir, 'build/out.js', 'built before the run\n')
    const source = await sourceFor(dir)
    const nested = path.join(dir, 'vendor', 'lib')
    mkdirSync(nested, { recursive: true })
    sh(nested, ['init', '-q'])
    write(nested, 'index.js', 'module.exports = 1\n')
    sh(nested, ['add', '-A'])
    sh(nested, ['commit', '-q', '-m', 'nested'])
    write(dir, 'debug.log', 'ignored\n')
    // Un-ignoring a folder that was ignored before the first call does not bring it in.
    write(dir, '.gitignore', '*.log\n')
    write(dir, PROGRESS, '- iteration 1\n')
    write(dir, 'src/new.mjs', 'export const y = 2\n')
    const result = await publishableTree(source, await rulesFor(dir))
    const files = [...treeFiles(dir, result.tree).keys()]
    expect(files).toContain('src/new.mjs')
    expect(files).toContain('.gitignore')
    expect(files.filter((f) => f.startsWith('vendor'))).toEqual([])
    expect(files).not.toContain('debug.log')
    expect(files).not.toContain('build/out.js')
    expect(files).not.toContain(PROGRESS)
    expect(result.notes.join('\n')).toContain('nested repositories are not committed: vendor/lib/')
  })

  test('GitWorkspace commits exactly that tree, and refuses to commit without rules', async () => {
    const dir = project()
    const bare = new GitWorkspace({ dir, progressFile: PROGRESS })
    await bare.prepare()
    write(dir, 'test/run.mjs', 'process.exit(0)\n')
    write(dir, '.github/workflows/evil.yml', 'on: push\n')
    write(dir, 'src/math.mjs', 'export const z = 3\n')
    await expect(bare.commitIteration('r1', 1)).rejects.toThrow(/no protected-path rules/)
    expect(sh(dir, ['rev-list', '--count', 'HEAD']).trim()).toBe('1')
    const ws = new GitWorkspace({ dir, progressFile: PROGRESS, rules: await rulesFor(dir, ['!.github/workflows/**', '**/test/**']) })
    const change = await ws.commitIteration('r1', 1)
    expect(change.changedFiles).toEqual(['src/math.mjs'])
    expect(change.restored).toEqual(['test/run.mjs'])
    const head = await ws.head()
    expect(sh(dir, ['show', `${head}:test/run.mjs`])).toBe(BASE_TEST)
    expect(sh(dir, ['ls-tree', '-r', '--name-only', head])).not.toContain('evil.yml')
  })

  test('the features file’s own commit goes through the same tree: only that file, never a workflow left in the workspace', async () => {
    const dir = makeRepo({ ...buggyProject(), 'features.json': '[{"passes": false}]\n' })
    const ws = new GitWorkspace({ dir, progressFile: PROGRESS, featuresFile: 'features.json', rules: await rulesFor(dir, ['!.github/workflows/**']) })
    await ws.prepare()
    write(dir, '.github/workflows/evil.yml', 'on: push\n')
    write(dir, 'src/math.mjs', 'export const w = 4\n')
    write(dir, 'features.json', '[{"passes": true}]\n')
    const change = await ws.commitIteration('r1', 1)
    expect(change.changedFiles).toEqual(['src/math.mjs'])
    const record = await ws.commitFeaturesFile('r1', 1, change.commit as string)
    expect(sh(dir, ['show', '--name-only', '--format=', record as string]).trim()).toBe('features.json')
    expect(sh(dir, ['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('.github')
  })
})
