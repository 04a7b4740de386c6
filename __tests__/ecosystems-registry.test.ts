import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import {
  ECOSYSTEMS,
  inDependencyFolder,
  inRootDependencyFolder,
  isLockfile,
  isRegistryEnv,
  lockEntries,
  manifestKind,
  ROOT_DEPENDENCY_DIRS
} from '../src/ecosystems/registry.js'
import type { Ecosystem } from '../src/ecosystems/types.js'
import { prepareUpgrade, type UpgradeSettings } from '../src/upgrade/prepare.js'
import { UNMANAGED_LOCKFILES } from '../src/ecosystems/unmanaged.js'
import { makeRepo } from './helpers/repo.js'

const FOLDER = path.join(process.cwd(), 'src', 'ecosystems')

/** The smallest file of each name an ecosystem claims that its own detection accepts (`<id>:<name>` for one of its own). */
const FIXTURES: Record<string, string> = {
  'pnpm:package.json': '{ "name": "p", "version": "1.0.0", "packageManager": "pnpm@10.34.9" }\n',
  'package.json': '{ "name": "p", "version": "1.0.0" }\n',
  'package-lock.json': '{ "lockfileVersion": 3, "packages": { "": {} } }\n',
  'npm-shrinkwrap.json': '{ "lockfileVersion": 3, "packages": { "": {} } }\n',
  'requirements.txt': 'six==1.16.0\n',
  'pnpm-lock.yaml': "lockfileVersion: '9.0'\n\nimporters:\n\n  .: {}\n"
}

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lg-eco-'))
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text)
  return dir
}

function detects(eco: Ecosystem, files: Record<string, string>): boolean {
  const dir = workspace(files)
  try {
    return eco.upgrade.detect(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the ecosystem registry', () => {
  const folders = readdirSync(FOLDER, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()

  it('registers every folder of src/ecosystems, once, under the folder name', () => {
    expect(ECOSYSTEMS.map((e) => e.id).sort()).toEqual(folders)
    expect(new Set(ECOSYSTEMS.map((e) => e.id)).size).toBe(ECOSYSTEMS.length)
  })

  test.each(folders.map((f) => [f]))('%s/index.ts loads and exports the registered entry', async (id) => {
    const mod = (await import(pathToFileURL(path.join(FOLDER, id, 'index.ts')).href)) as Record<string, unknown>
    expect(Object.values(mod)).toContain(ECOSYSTEMS.find((e) => e.id === id))
  })

  describe.each(ECOSYSTEMS.map((e) => [e.id, e] as const))('%s', (_id, eco) => {
    it('its detection accepts a tiny project of each manifest and lockfile it claims', () => {
      const manifest = eco.detection.manifests[0]
      const fixture = (name: string): string => FIXTURES[`${eco.id}:${name}`] ?? FIXTURES[name]
      for (const name of [...eco.detection.manifests, ...eco.detection.lockfiles]) {
        expect(fixture(name)).toBeDefined()
        expect([name, detects(eco, { [manifest]: fixture(manifest), [name]: fixture(name) })]).toEqual([name, true])
      }
      expect(detects(eco, {})).toBe(false)
    })

    it('every lockfile it claims is a lockfile to the gate, read by its own parser', () => {
      for (const name of eco.lockfiles) {
        expect(isLockfile(`sub/${name}`)).toBe(true)
        if (FIXTURES[name]) expect(lockEntries(name, FIXTURES[name], [])).toEqual(eco.lockEntries(name, FIXTURES[name], []))
      }
      for (const name of eco.detection.lockfiles) expect(isLockfile(name)).toBe(true)
    })

    it('every manifest it claims has its kind and keys; its folders are dependency folders', () => {
      for (const m of eco.manifests) {
        expect(manifestKind(`pkg/${m.file}`)).toBe(m.kind)
        expect(m.allowedKeys.length).toBeGreaterThan(0)
      }
      for (const dir of eco.dependencyFolders.root) {
        expect(ROOT_DEPENDENCY_DIRS).toContain(dir)
        expect(inRootDependencyFolder(`${dir}/x/index.js`)).toBe(true)
      }
      for (const dir of eco.dependencyFolders.anyDepth) expect(inDependencyFolder(`src/${dir}/x/index.js`)).toBe(true)
      for (const dir of Object.keys(eco.dependencyFolders.caches)) expect(eco.dependencyFolders.root).toContain(dir)
    })

    it('its upgrade manager names only files it claims', () => {
      for (const f of eco.upgrade.bumpFiles) expect([...eco.detection.manifests, ...eco.detection.lockfiles, ...eco.manifests.map((m) => m.file)]).toContain(f)
    })
  })

  it('no lockfile name is claimed twice; the unmanaged ones are lockfiles read by no ecosystem', () => {
    const claimed = [...ECOSYSTEMS.flatMap((e) => e.lockfiles), ...Object.values(UNMANAGED_LOCKFILES).flat()]
    expect(new Set(claimed).size).toBe(claimed.length)
    for (const name of Object.values(UNMANAGED_LOCKFILES).flat()) {
      expect(isLockfile(name)).toBe(true)
      expect(lockEntries(name, '', [])).toBeNull()
    }
    expect(isLockfile('requirements-dev.txt')).toBe(true)
    expect(isLockfile('src/lock.json')).toBe(false)
    expect(inDependencyFolder('src/node_modulesx/a.js')).toBe(false)
    expect(inDependencyFolder('lib/.venv/a.py')).toBe(false)
  })

  it('passes each ecosystem its registry configuration, nothing else', () => {
    expect(['npm_config_registry', 'NPM_CONFIG_USERCONFIG', 'NODE_AUTH_TOKEN', 'PIP_INDEX_URL'].every(isRegistryEnv)).toBe(true)
    expect(['GITHUB_TOKEN', 'ANTHROPIC_API_KEY', 'PYTHONPATH'].some(isRegistryEnv)).toBe(false)
  })
})

describe("npm detection stays away from another manager's project", () => {
  const npm = ECOSYSTEMS.find((e) => e.id === 'npm')!
  const manifest = (extra: object): string => JSON.stringify({ name: 'p', version: '1.0.0', ...extra })

  it('a packageManager naming pnpm or yarn is not npm; one naming npm is', () => {
    expect(detects(npm, { 'package.json': manifest({ packageManager: 'pnpm@9.12.0' }) })).toBe(false)
    expect(detects(npm, { 'package.json': manifest({ packageManager: 'yarn@4.5.0' }) })).toBe(false)
    expect(detects(npm, { 'package.json': manifest({ packageManager: 'npm@10.9.0' }) })).toBe(true)
  })

  it("another manager's lockfile without an npm lockfile is not npm (npm would add a package-lock.json)", () => {
    expect(detects(npm, { 'package.json': manifest({}), 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" })).toBe(false)
    expect(detects(npm, { 'package.json': manifest({}), 'yarn.lock': '' })).toBe(false)
    expect(detects(npm, { 'package.json': manifest({}), 'yarn.lock': '', 'package-lock.json': FIXTURES['package-lock.json'] })).toBe(true)
  })

  it("a dependency-upgrade run on a pnpm project is never npm's: a pnpm it cannot have stops it before anything runs, naming it", async () => {
    const settings = (dir: string): UpgradeSettings =>
      ({ task: 'dependency-upgrade', workspace: dir, ignore: [], allowMajor: false, protectedPaths: [] }) as unknown as UpgradeSettings
    const declared = makeRepo({ 'package.json': manifest({ packageManager: 'pnpm@9.12.0' }) })
    await expect(prepareUpgrade(settings(declared), { attempts: [], env: { PATH: '/usr/bin:/bin' }, runId: '1-1' })).rejects.toThrow(
      /declares pnpm@9\.12\.0, but no pnpm on PATH, and corepack does not have it offline \(loopgate never falls back to npm/
    )
    const lockOnly = makeRepo({ 'package.json': manifest({}), 'pnpm-lock.yaml': FIXTURES['pnpm-lock.yaml'] })
    await expect(prepareUpgrade(settings(lockOnly), { attempts: [], env: { PATH: '/usr/bin:/bin' }, runId: '1-1' })).rejects.toThrow(
      /it is a pnpm project, but no pnpm on PATH \(loopgate never falls back to npm/
    )
    for (const dir of [declared, lockOnly]) {
      expect(existsSync(path.join(dir, 'package-lock.json'))).toBe(false)
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
