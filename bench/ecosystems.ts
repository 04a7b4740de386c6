// The time from the start of an upgrade run to loopgate's bump commit, per ecosystem, on the same
// small project: one dependency, 1.0.0 → 2.0.0, from a local registry (verdaccio for the npm family,
// a PEP 503 index for Python). Detection, `outdated`, the bump of manifest and lockfile, the commit.
// Run alone with `npx tsx bench/ecosystems.ts`.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { startRegistry } from '../__tests__/helpers/npm-registry.js'
import { startPackageIndex } from '../__tests__/helpers/pypi-index.js'
import { tempDir } from '../__tests__/helpers/repo.js'
import { yarnBerryBin, yarnClassicBin } from '../__tests__/helpers/yarn-bins.js'
import { git, median, printTable, removeDeferred, removeLater, type Figure } from './lib.js'
import { GitRepository } from '../src/git/repository.js'

const ROUNDS = 3
const BIN = path.resolve('node_modules/.bin')
const SOURCE = "import { add } from 'mathlib'\nexport const total = (xs) => xs.reduce((a, b) => add(a, b), 0)\n"

interface EcosystemProject {
  id: string
  /** A folder put first on PATH for this project (its own yarn: node_modules/.bin/yarn may be either). */
  bin?: () => string
  /** Writes the project's files and lockfile into `ws`, before its first commit. */
  write(ws: string, env: NodeJS.ProcessEnv): void
}

const manifest = (extra: Record<string, unknown>): string =>
  JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module', ...extra }, null, 2) + '\n'

const PROJECTS: EcosystemProject[] = [
  {
    id: 'npm',
    write(ws, env) {
      writeFileSync(path.join(ws, 'package.json'), manifest({}))
      execFileSync('npm', ['install', 'mathlib@1.0.0', '--save-exact', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ws, env, stdio: 'pipe' })
    }
  },
  {
    id: 'pnpm',
    write(ws, env) {
      writeFileSync(path.join(ws, 'package.json'), manifest({ packageManager: 'pnpm@10.34.9' }))
      execFileSync(path.join(BIN, 'pnpm'), ['add', 'mathlib@1.0.0', '--save-exact', '--ignore-scripts'], { cwd: ws, env, stdio: 'pipe' })
    }
  },
  {
    id: 'yarn classic',
    bin: yarnClassicBin,
    write(ws, env) {
      writeFileSync(path.join(ws, 'package.json'), manifest({ packageManager: 'yarn@1.22.22', dependencies: { mathlib: '1.0.0' } }))
      execFileSync('yarn', ['install', '--ignore-scripts', '--non-interactive'], {
        cwd: ws,
        env: { ...env, YARN_IGNORE_PATH: '1' },
        stdio: 'pipe'
      })
    }
  },
  {
    id: 'yarn berry',
    bin: yarnBerryBin,
    write(ws, env) {
      writeFileSync(path.join(ws, 'package.json'), manifest({ packageManager: 'yarn@4.18.1', dependencies: { mathlib: '1.0.0' } }))
      const registry = (env.npm_config_registry ?? '').replace(/\/$/, '')
      writeFileSync(
        path.join(ws, '.yarnrc.yml'),
        `nodeLinker: node-modules\nnpmRegistryServer: "${registry}"\nunsafeHttpWhitelist: ["127.0.0.1"]\nnpmMinimalAgeGate: 0\n`
      )
      execFileSync('yarn', ['install', '--mode=update-lockfile'], { cwd: ws, env: { ...env, YARN_ENABLE_IMMUTABLE_INSTALLS: '0' }, stdio: 'pipe' })
    }
  },
  {
    id: 'pip requirements',
    write(ws) {
      writeFileSync(path.join(ws, 'requirements.txt'), 'lg-mathlib==1.0.0\n')
    }
  },
  {
    id: 'pyproject.toml with pip',
    write(ws) {
      writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "calc"\nversion = "1.0.0"\ndependencies = ["lg-mathlib>=1.0,<2"]\n')
    }
  },
  {
    id: 'Poetry',
    write(ws, env) {
      const pyproject = [
        '[tool.poetry]',
        'name = "calc"',
        'version = "1.0.0"',
        'description = ""',
        'authors = []',
        '',
        '[tool.poetry.dependencies]',
        'python = "^3.8"',
        'lg-mathlib = "^1.0"',
        '',
        '[[tool.poetry.source]]',
        'name = "bench"',
        `url = "${env.PIP_INDEX_URL ?? ''}"`,
        'default = true',
        ''
      ].join('\n')
      writeFileSync(path.join(ws, 'pyproject.toml'), pyproject)
      execFileSync('poetry', ['lock', '--no-interaction'], {
        cwd: ws,
        env: { ...env, POETRY_VIRTUALENVS_CREATE: 'false', PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring' },
        stdio: 'pipe'
      })
    }
  }
]

const onPath = (tool: string): boolean => spawnSync('/bin/sh', ['-c', `command -v ${tool}`]).status === 0

function newProject(project: EcosystemProject, env: NodeJS.ProcessEnv): string {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'lgb-eco-'))
  removeLater(ws)
  git(ws, ['init', '-q', '-b', 'main'])
  writeFileSync(path.join(ws, '.gitignore'), 'node_modules\n')
  writeFileSync(path.join(ws, 'calc.js'), SOURCE)
  project.write(ws, env)
  rmSync(path.join(ws, 'node_modules'), { recursive: true, force: true })
  git(ws, ['add', '-A'])
  git(ws, ['commit', '-q', '-m', 'start'])
  return ws
}

async function timeToBump(project: EcosystemProject, env: NodeJS.ProcessEnv): Promise<number> {
  const ws = newProject(project, env)
  const settings = { task: 'dependency-upgrade', workspace: ws, ignore: [], allowMajor: true, protectedPaths: ['test/**'] } as unknown as UpgradeSettings
  const started = performance.now()
  const ready = await prepareUpgrade(settings, {
    repository: GitRepository.plain(settings.workspace),
    attempts: [],
    env: packageManagerEnv(env),
    runId: 'bench-1'
  })
  const elapsed = performance.now() - started
  if (ready.kind !== 'ready') throw new Error(`${project.id}: no bump (${ready.notes.join('; ')})`)
  return elapsed
}

export async function benchEcosystems(): Promise<Figure[]> {
  const registry = await startRegistry()
  const index = await startPackageIndex()
  try {
    for (const version of ['1.0.0', '2.0.0']) {
      registry.publish('mathlib', version, { 'index.js': 'export const add = (a, b) => a + b\n' }, { type: 'module', main: 'index.js' })
      index.publish('lg-mathlib', version, { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' })
    }
    const yarnGlobal = tempDir('lgb-yarn-global-')
    removeLater(yarnGlobal)
    const env = {
      ...process.env,
      ...registry.env,
      ...index.env,
      PATH: `${BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      YARN_GLOBAL_FOLDER: yarnGlobal
    }
    const figures: Figure[] = []
    for (const project of PROJECTS) {
      if (project.id === 'Poetry' && !onPath('poetry')) {
        figures.push({ name: 'start to bump commit, Poetry', value: 'skipped: no poetry on PATH (apt-get install python3-poetry)' })
        continue
      }
      const own = project.bin ? { ...env, PATH: `${project.bin()}:${env.PATH}` } : env
      const times: number[] = []
      for (let i = 0; i < ROUNDS; i++) times.push(await timeToBump(project, own))
      figures.push({ name: `start to bump commit, ${project.id} (median of ${ROUNDS})`, value: `${(median(times) / 1000).toFixed(2)} s` })
    }
    return figures
  } finally {
    await registry.stop()
    await index.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchEcosystems())
  removeDeferred()
}
