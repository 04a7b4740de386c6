import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const repo = path.resolve(import.meta.dirname, '..')
const checker = path.join(repo, 'scripts/check-layers.mjs')

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'layers-'))
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

function check(root: string): { status: number | null; out: string } {
  const result = spawnSync(process.execPath, [checker, root], { cwd: repo, encoding: 'utf8' })
  return { status: result.status, out: result.stdout + result.stderr }
}

const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

function fixture(files: Record<string, string>): string {
  const root = tree(files)
  roots.push(root)
  return root
}

describe('the layer checker', () => {
  it('passes a tree that imports downward only', () => {
    const root = fixture({
      'main.ts': "import { run } from './run/run-loop.js'\nrun()\n",
      'run/run-loop.ts': "import { step } from '../loop/engine.js'\nexport const run = () => step()\n",
      'loop/engine.ts': "import type { Settings } from '../settings.js'\nexport const step = (s?: Settings) => s\n",
      'settings.ts': 'export interface Settings { a: number }\n'
    })
    expect(check(root)).toEqual({ status: 0, out: expect.stringContaining('keeps the layer order') })
  })

  it('fails on a cycle between files, naming its path', () => {
    const root = fixture({
      'git/a.ts': "import { b } from './b.js'\nexport const a = () => b()\n",
      'git/b.ts': "import { a } from './a.js'\nexport const b = () => a()\n"
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('import cycle: git/a.ts -> git/b.ts -> git/a.ts')
  })

  it('fails on an import against the layer order', () => {
    const root = fixture({
      'github/client.ts': "import { publish } from '../publish/registry.js'\nexport const client = publish\n",
      'publish/registry.ts': 'export const publish = 1\n'
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('upward import: github/client.ts (domain) -> publish/registry.ts (services)')
  })

  it('fails when the loop imports more than the leaves, and when folders of one layer import each other', () => {
    const root = fixture({
      'loop/engine.ts': "import { Git } from '../git/facade.js'\nexport const engine = Git\n",
      'git/facade.ts': "import { user } from '../isolation/user.js'\nexport const Git = user\n",
      'isolation/user.ts': "import type { Git } from '../git/facade.js'\nexport const user = 1\nexport type G = typeof Git\n"
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('loop/engine.ts imports git/facade.ts: loop/ imports only leaves')
    expect(out).toContain('folders import each other: git <-> isolation')
  })

  it('fails on git run anywhere outside git/, the gate included', () => {
    const root = fixture({
      'state/store.ts': "import { execFile } from 'node:child_process'\nexecFile('git', ['status'])\n",
      'gate/snapshot.ts': "import { spawn } from 'node:child_process'\nspawn(\n  'git',\n  ['status']\n)\n",
      'git/git.ts': "import { execFile } from 'node:child_process'\nexecFile('git', ['status'])\n"
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('error: state/store.ts runs git outside git/')
    expect(out).toContain('error: gate/snapshot.ts runs git outside git/')
    expect(out).not.toContain('git/git.ts runs git')
  })

  it("fails on an import of git/'s command-line files outside git/; the facade is what others import", () => {
    const root = fixture({
      'upgrade/prepare.ts': "import { runGit } from '../git/command-line.js'\nexport const head = () => runGit(['rev-parse', 'HEAD'], { cwd: '.' })\n",
      'gate/base.ts': "import type { HeldRepository } from '../git/custody-registry.js'\nexport type Held = HeldRepository\n",
      'run/setup.ts': "import { execFileSync } from 'node:child_process'\nexport const head = () => execFileSync('git', ['rev-parse', 'HEAD'])\n",
      'run/ok.ts': "import { GitRepository } from '../git/repository.js'\nexport const head = () => GitRepository.plain('.').head()\n",
      'git/repository.ts':
        "import { runGit } from './command-line.js'\nexport class GitRepository { static plain(d: string) { return { head: () => runGit([d]) } } }\n",
      'git/command-line.ts': "import { execFile } from 'node:child_process'\nexport const runGit = (args: string[], _at?: unknown) => execFile('git', args)\n",
      'git/custody-registry.ts': 'export interface HeldRepository { gitDir: string }\n'
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('error: upgrade/prepare.ts imports git/command-line.ts: outside git/, git runs through a GitRepository or GateRepository')
    expect(out).toContain('error: gate/base.ts imports git/custody-registry.ts')
    expect(out).toContain('error: run/setup.ts runs git outside git/')
    expect(out).not.toContain('run/ok.ts')
    expect(out).not.toContain('error: git/')
  })

  it("fails on two files with one name; a registry entry's folder names its files by the entry", () => {
    const root = fixture({
      'state/settle.ts': 'export const a = 1\n',
      'session/settle.ts': 'export const b = 1\n',
      'ecosystems/npm/manager.ts': 'export const c = 1\n',
      'ecosystems/pip/manager.ts': 'export const d = 1\n',
      'ecosystems/npm/index.ts': 'export const e = 1\n',
      'ecosystems/npm/lockfile.ts': 'export const f = 1\n',
      'gate/lockfile.ts': 'export const g = 1\n'
    })
    const { status, out } = check(root)
    expect(status).toBe(1)
    expect(out).toContain('one name, two files: settle.ts (session/settle.ts, state/settle.ts)')
    expect(out).not.toContain('manager.ts')
    expect(out).not.toContain('index.ts')
    expect(out).not.toMatch(/lockfile\.ts/)
    expect(out.match(/one name, two files/g)).toHaveLength(1)
  })

  it('passes the real source tree with no exception left: no upward import, no folder cycle, git run only in git/', () => {
    const { status, out } = check(path.join(repo, 'src'))
    expect(out).toContain('keeps the layer order')
    expect(out).not.toContain('allowed')
    expect(status).toBe(0)
  })

  it('prints the folder graph of a tree with npm run structure', () => {
    const root = fixture({
      'main.ts': "import { a } from './git/a.js'\nimport { b } from './git/b.js'\nexport const m = a + b\n",
      'git/a.ts': 'export const a = 1\n',
      'git/b.ts': "import { a } from './a.js'\nexport const b = a\n"
    })
    const out = execFileSync(process.execPath, [path.join(repo, 'scripts/structure.mjs'), root], { encoding: 'utf8' })
    expect(out).toContain('3 files')
    expect(out).toMatch(/main\s+entry points\s+1\s+3\s+git\(2\)/)
    expect(out).toMatch(/git\s+domain\s+2\s+3/)
    expect(out).toContain('folder cycles: none')
  })
})
