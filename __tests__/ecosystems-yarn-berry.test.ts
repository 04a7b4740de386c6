import { berryVersions } from '../src/ecosystems/yarn/berry-manager.js'
import { berryLocked, parseBerryLock } from '../src/ecosystems/yarn/berry-lockfile.js'
import { isBerryProject, YarnPackageManager } from '../src/ecosystems/yarn/yarn-manager.js'
import { makeRepo } from './helpers/repo.js'

const NOW = Date.parse('2026-06-01T12:00:00Z')
const info = JSON.stringify({
  name: 'mathlib',
  versions: ['1.0.0', '2.0.0', '2.1.0', '3.0.0'],
  time: { created: '2026-01-01T00:00:00Z', '1.0.0': '2026-01-01T00:00:00Z', '2.0.0': '2026-05-30T12:00:00Z', '2.1.0': '2026-06-01T06:00:00Z' }
})

const LOCK = [
  '__metadata:',
  '  version: 8',
  '  cacheKey: 10c0',
  '',
  '"mathlib@npm:1.0.0, mathlib@npm:^1.0.0":',
  '  version: 1.0.0',
  '  resolution: "mathlib@npm:1.0.0"',
  '  checksum: 10c0/' + 'a'.repeat(128),
  '  languageName: node',
  '  linkType: hard',
  ''
].join('\n')

describe('Yarn Berry', () => {
  it("reads `yarn npm info`'s versions, leaving out what Yarn's age gate still holds back (and what has no publish time)", () => {
    expect(berryVersions(info, 0, NOW)).toEqual(['1.0.0', '2.0.0', '2.1.0', '3.0.0'])
    expect(berryVersions(info, 1440, NOW)).toEqual(['1.0.0', '2.0.0'])
    expect(berryVersions(info, 3 * 1440, NOW)).toEqual(['1.0.0'])
    expect(berryVersions('not json', 0, NOW)).toBeNull()
  })

  it('finds the version a Berry lockfile resolves a declared range to', () => {
    const doc = parseBerryLock(LOCK)
    expect(berryLocked(doc, 'mathlib', '^1.0.0')).toBe('1.0.0')
    expect(berryLocked(doc, 'mathlib', '1.0.0')).toBe('1.0.0')
    expect(berryLocked(doc, 'mathlib', '^2.0.0')).toBeNull()
    expect(parseBerryLock('# yarn lockfile v1\n\nmathlib@^1.0.0:\n  version "1.0.0"\n')).toBeNull()
  })

  it('a project is Berry by its yarn declaration, else by its lockfile; a Berry lockfile under a yarn 1 declaration is refused', () => {
    const pkg = (extra: Record<string, unknown>): string => JSON.stringify({ name: 'p', dependencies: { mathlib: '^1.0.0' }, ...extra })
    expect(isBerryProject(makeRepo({ 'package.json': pkg({ packageManager: 'yarn@4.18.1+sha512.abc' }) }))).toBe(true)
    expect(isBerryProject(makeRepo({ 'package.json': pkg({}), 'yarn.lock': LOCK }))).toBe(true)
    expect(isBerryProject(makeRepo({ 'package.json': pkg({ packageManager: 'yarn@1.22.22' }) }))).toBe(false)
    const mixed = makeRepo({ 'package.json': pkg({ packageManager: 'yarn@1.22.22' }), 'yarn.lock': LOCK })
    const yarn = new YarnPackageManager()
    expect(yarn.detect(mixed)).toBe(false)
    expect(yarn.declined(mixed)).toMatch(/declares packageManager yarn@1\.22\.22 \(Yarn classic\), but yarn\.lock is a Yarn Berry lockfile/)
    const linked = makeRepo({ 'package.json': pkg({ packageManager: 'yarn@4.18.1' }), 'yarn.lock': LOCK, '.yarnrc.yml': 'nodeLinker: "node-modules"\n' })
    expect(yarn.detect(linked)).toBe(true)
    const pnpLinker = makeRepo({ 'package.json': pkg({ packageManager: 'yarn@4.18.1' }), '.yarnrc.yml': 'nodeLinker: pnp\n' })
    expect(yarn.declined(pnpLinker)).toMatch(/sets nodeLinker: pnp: loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only/)
  })
})
