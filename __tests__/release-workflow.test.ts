import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'
import { VERSION } from '../src/version.js'
import { ROOT } from './helpers/action-runner.js'

type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string> }
type Workflow = {
  on: Record<string, { tags?: string[]; branches?: string[] } | null>
  permissions: Record<string, string>
  jobs: Record<string, { steps: Step[] }>
}

const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
const workflow = (name: string): Workflow => yaml.load(read(`.github/workflows/${name}`)) as Workflow
const PACKAGE_VERSION = (JSON.parse(read('package.json')) as { version: string }).version

/** GitHub's tag filter syntax, as far as the release pattern uses it: [set], + and literal dots. */
function tagFilter(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\./g, '\\.')}$`)
}

describe('the release workflow', () => {
  const wf = workflow('release.yml')
  const steps = Object.values(wf.jobs).flatMap((job) => job.steps)
  const index = (what: string, test: (s: Step) => boolean): number => {
    const i = steps.findIndex(test)
    expect([what, i >= 0]).toEqual([what, true])
    return i
  }

  it('runs on vX.Y.Z tags only, with write access to contents', () => {
    const [pattern] = wf.on.push?.tags ?? []
    expect(Object.keys(wf.on)).toEqual(['push'])
    for (const tag of ['v0.1.0', 'v1.2.3', 'v10.20.30']) expect([tag, tagFilter(pattern).test(tag)]).toEqual([tag, true])
    for (const tag of ['v1', 'v1.2', 'v1.2.3-rc.1', '1.2.3', 'v1.2.x']) expect([tag, tagFilter(pattern).test(tag)]).toEqual([tag, false])
    expect(wf.permissions).toEqual({ contents: 'write' })
  })

  it('checks dist/, runs the tests, creates the release with CHANGELOG notes, then moves the major tag — in that order', () => {
    const checkout = index('checkout', (s) => s.uses?.startsWith('actions/checkout@') === true)
    const version = index(
      'tag = package.json version',
      (s) => /require\("\.\/package\.json"\)\.version/.test(s.run ?? '') && /GITHUB_REF_NAME/.test(s.run ?? '')
    )
    const install = index('npm ci', (s) => s.run?.trim() === 'npm ci')
    const dist = index(
      'dist check',
      (s) => /npm run package/.test(s.run ?? '') && /git status --porcelain -- dist/.test(s.run ?? '') && /exit 1/.test(s.run ?? '')
    )
    const tests = index('tests', (s) => /\bnpm test\b/.test(s.run ?? ''))
    const notes = index('notes', (s) => /node scripts\/release-notes\.mjs "\$GITHUB_REF_NAME"/.test(s.run ?? ''))
    const release = index('release', (s) => /gh release create "\$GITHUB_REF_NAME" --verify-tag .*--notes-file/.test(s.run ?? ''))
    const major = index(
      'major tag',
      (s) =>
        /major="\$\{GITHUB_REF_NAME%%\.\*\}"/.test(s.run ?? '') &&
        /git tag --force "\$major"/.test(s.run ?? '') &&
        /git push --force origin "refs\/tags\/\$major"/.test(s.run ?? '')
    )
    expect([checkout, version, install, dist, tests, notes, release, major]).toEqual(
      [...[checkout, version, install, dist, tests, notes, release, major]].sort((a, b) => a - b)
    )
    expect(new Set([checkout, version, install, dist, tests, notes, release, major]).size).toBe(8)
    expect(steps[release].env?.GH_TOKEN).toBe('${{ github.token }}')
  })

  it('the major-tag step names vX for a vX.Y.Z tag', () => {
    const step = steps.find((s) => /git tag --force/.test(s.run ?? ''))!
    const r = spawnSync('bash', ['-c', `${step.run!.split('\n')[0]}\necho "$major"`], {
      env: { GITHUB_REF_NAME: 'v12.3.4', PATH: process.env.PATH },
      encoding: 'utf8'
    })
    expect(r.stdout.trim()).toBe('v12')
  })

  it('pull requests get the tests and the dist check', () => {
    const ci = workflow('ci.yml')
    const checkDist = workflow('check-dist.yml')
    expect(Object.keys(ci.on)).toContain('pull_request')
    expect(Object.keys(checkDist.on)).toContain('pull_request')
    expect(
      Object.values(ci.jobs)
        .flatMap((j) => j.steps)
        .some((s) => s.run === 'npm test')
    ).toBe(true)
    expect(
      Object.values(checkDist.jobs)
        .flatMap((j) => j.steps)
        .some((s) => /git status --porcelain -- dist/.test(s.run ?? ''))
    ).toBe(true)
  })
})

describe('versions and tags agree', () => {
  it('src/version.ts says the version of package.json', () => {
    expect(VERSION).toBe(PACKAGE_VERSION)
  })

  it('CHANGELOG.md has an Unreleased section and the notes of the current version', () => {
    const changelog = read('CHANGELOG.md')
    expect(changelog).toMatch(/^## \[Unreleased\]$/m)
    const r = spawnSync(process.execPath, ['scripts/release-notes.mjs', `v${PACKAGE_VERSION}`], { cwd: ROOT, encoding: 'utf8' })
    expect(r.status).toBe(0)
    expect(r.stdout).toMatch(/^### Added/)
    expect(r.stdout).not.toMatch(/^## /m)
    const missing = spawnSync(process.execPath, ['scripts/release-notes.mjs', '99.0.0'], { cwd: ROOT, encoding: 'utf8' })
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain('no section "## [99.0.0]"')
  })

  it('every `uses: loopgate/loopgate@vX` in the README and the workflows names the major tag a release of this version moves', () => {
    const major = `v${PACKAGE_VERSION.split('.')[0]}`
    const files = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'examples', 'workflows')).map((f) => `examples/workflows/${f}`),
      ...readdirSync(path.join(ROOT, '.github', 'workflows')).map((f) => `.github/workflows/${f}`)
    ]
    const refs = files.flatMap((file) => [...read(file).matchAll(/loopgate\/loopgate(?:\/[^@\s]*)?@(v\d[\w.-]*)/g)].map((m) => [file, m[1]]))
    expect(refs.filter(([file]) => file === 'README.md').length).toBeGreaterThan(0)
    expect(refs.filter(([, ref]) => ref !== major)).toEqual([])
  })
})
