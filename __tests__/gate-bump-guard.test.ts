import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { bumpViolations, describeBump, type BumpDescription } from '../src/gate/dependencies/bump-guard.js'
import { makeRepo, sh } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

const entry = (name: string, version: string, deps?: Record<string, string>) => ({
  version,
  resolved: `https://registry.npmjs.org/${name}/-/${name}-${version}.tgz`,
  integrity: `sha512-${name}${version}`,
  ...(deps ? { dependencies: deps } : {})
})
const manifest = (deps: Record<string, string>): string => `${JSON.stringify({ name: 'p', version: '1.0.0', dependencies: deps }, null, 2)}\n`
const lock = (deps: Record<string, string>, packages: Record<string, unknown>): string =>
  `${JSON.stringify({ name: 'p', lockfileVersion: 3, requires: true, packages: { '': { name: 'p', dependencies: deps }, ...packages } }, null, 2)}\n`

const OLD = {
  'package.json': manifest({ mathlib: '^1.0.0', other: '^1.0.0' }),
  'package-lock.json': lock(
    { mathlib: '^1.0.0', other: '^1.0.0' },
    {
      'node_modules/mathlib': entry('mathlib', '1.0.0', { mathcore: '^1.0.0' }),
      'node_modules/mathcore': entry('mathcore', '1.0.0'),
      'node_modules/old-helper': entry('old-helper', '1.0.0'),
      'node_modules/other': entry('other', '1.0.0')
    }
  )
}
const NEW = {
  'package.json': manifest({ mathlib: '^2.0.0', other: '^1.0.0' }),
  'package-lock.json': lock(
    { mathlib: '^2.0.0', other: '^1.0.0' },
    {
      'node_modules/mathlib': entry('mathlib', '2.0.0', { mathcore: '^2.0.0' }),
      'node_modules/mathcore': entry('mathcore', '2.0.0'),
      'node_modules/other': entry('other', '1.0.0')
    }
  )
}

/** A repository whose last commit bumps mathlib 1 → 2 (mathcore moved with it, old-helper dropped); returns the description. */
async function bumped(files: { before: Record<string, string>; after: Record<string, string> }, origin = {}): Promise<{ ws: string; bump: BumpDescription }> {
  const ws = makeRepo(files.before)
  const before = sh(ws, ['rev-parse', 'HEAD']).trim()
  for (const [f, text] of Object.entries(files.after)) writeFileSync(path.join(ws, f), text)
  sh(ws, ['commit', '-q', '-am', 'bump'])
  return { ws, bump: await describeBump(GitRepository.plain(ws), { before, bump: sh(ws, ['rev-parse', 'HEAD']).trim() }, origin) }
}

const tree = (files: Record<string, string | null>) => ({ paths: Object.keys(files), read: (f: string) => files[f] ?? null })

describe('the bump guard', () => {
  it('reads the bump from the diff of two commits: the package from the manifest, its entries and the lockfile entries it moved', async () => {
    const { bump } = await bumped({ before: OLD, after: NEW }, { label: "the pull request's bump" })
    expect(bump.packages).toEqual(['mathlib'])
    expect(bump.manifestEntries).toEqual([{ file: 'package.json', table: 'dependencies', name: 'mathlib', spec: '^2.0.0' }])
    expect(bump.lockEntries.map((e) => [e.key, e.text === null ? null : JSON.parse(e.text).version])).toEqual([
      ['node_modules/mathlib', '2.0.0'],
      ['node_modules/mathcore', '2.0.0'],
      ['node_modules/old-helper', null]
    ])
  })

  it('the bump as its commit left it is intact; another dependency may change', async () => {
    const { bump } = await bumped({ before: OLD, after: NEW })
    expect(bumpViolations(bump, tree(NEW))).toEqual([])
    const other = manifest({ mathlib: '^2.0.0', other: '^1.1.0' })
    expect(bumpViolations(bump, tree({ 'package.json': other, 'package-lock.json': NEW['package-lock.json'] }))).toEqual([])
  })

  it('a downgrade, a removal, a move to another table, a moved entry put back and a dropped entry back are each named', async () => {
    const { bump } = await bumped({ before: OLD, after: NEW }, { label: "loopgate's own bump to 2.0.0 in this run" })
    const lockNow = { 'package-lock.json': NEW['package-lock.json'] }
    const [m] = bumpViolations(bump, tree({ 'package.json': OLD['package.json'], ...lockNow }))
    expect(m.file).toBe('package.json')
    expect(m.change).toContain(
      "dependencies.mathlib changed from ^2.0.0 to ^1.0.0: mathlib is loopgate's own bump to 2.0.0 in this run and is fixed: fix the code forward"
    )
    const moved = JSON.stringify({ name: 'p', dependencies: { other: '^1.0.0' }, devDependencies: { mathlib: '^2.0.0' } })
    expect(bumpViolations(bump, tree({ 'package.json': moved, ...lockNow }))[0].change).toMatch(
      /dependencies\.mathlib removed \(the bump left \^2\.0\.0\); devDependencies\.mathlib added as \^2\.0\.0/
    )
    const [l] = bumpViolations(bump, tree({ 'package-lock.json': OLD['package-lock.json'], 'package.json': NEW['package.json'] }))
    expect(l.change).toMatch(
      /^node_modules\/mathlib changed; node_modules\/mathcore changed; node_modules\/old-helper is back \(the bump removed it\): mathlib is/
    )
    const nested = JSON.parse(NEW['package-lock.json']) as { packages: Record<string, unknown> }
    nested.packages['node_modules/other/node_modules/mathlib'] = entry('mathlib', '1.0.0')
    expect(bumpViolations(bump, tree({ 'package-lock.json': JSON.stringify(nested), 'package.json': NEW['package.json'] })).map((v) => v.change)).toEqual([
      expect.stringMatching(/^node_modules\/other\/node_modules\/mathlib added: /)
    ])
  })

  it('a deleted manifest or lockfile of the bump is a violation, whatever the candidate paths say', async () => {
    const { bump } = await bumped({ before: OLD, after: NEW })
    expect(bumpViolations(bump, tree({})).map((v) => v.file)).toEqual(['package-lock.json', 'package.json'])
  })

  it('per ecosystem: a requirements pin put back is named, a comment may change', async () => {
    const { bump } = await bumped({
      before: { 'requirements.txt': 'lg-mathlib==1.0.0  # math\nsix==1.16.0\n' },
      after: { 'requirements.txt': 'lg-mathlib==2.0.0  # math\nsix==1.16.0\n' }
    })
    expect(bump.packages).toEqual(['lg-mathlib'])
    expect(bumpViolations(bump, tree({ 'requirements.txt': 'lg-mathlib==2.0.0  # new math\nsix==1.17.0\n' }))).toEqual([])
    expect(bumpViolations(bump, tree({ 'requirements.txt': 'lg-mathlib==1.0.0\nsix==1.16.0\n' }))[0].change).toMatch(
      /^lg-mathlib changed: lg-mathlib is the bump of commit [0-9a-f]{12}/
    )
  })
})
