import { readSettings } from '../src/inputs/read-settings.js'
import { ConfigError } from '../src/errors.js'
import { pullRequestTitle } from '../src/publish/pull-request-body.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { emptyState, type UpgradeAttempt } from '../src/state/schema.js'
import { validateState } from '../src/state/parse.js'
import { mergeUpgradeAttempts } from '../src/state/record-run.js'
import { ignoredBy, parseIgnoreRule, type IgnoreRule } from '../src/upgrade/ignore.js'
import { repositoryUrl } from '../src/ecosystems/npm/manager.js'
import { bumpMessage, upgradeBranch } from '../src/upgrade/prepare.js'
import { blockingAttempt, upgradeCandidates } from '../src/upgrade/select.js'
import type { OutdatedDependency } from '../src/ecosystems/types.js'

const dep = (name: string, current: string, wanted: string, latest: string): OutdatedDependency => ({ name, current, wanted, latest, type: 'dependencies' })
const rules = (...entries: string[]): IgnoreRule[] => entries.map((e) => parseIgnoreRule(e) as IgnoreRule)

describe('choosing the next upgrade', () => {
  const outdated = [dep('zod', '3.1.0', '3.2.0', '4.0.0'), dep('@types/node', '20.1.0', '20.4.0', '22.0.0'), dep('left-pad', '1.0.0', '1.0.1', '1.0.1')]

  it('orders packages by name, the newest version first, then the newest the range admits; majors held unless allowed', () => {
    const held = upgradeCandidates(outdated, { ignore: [], allowMajor: false })
    expect(held.candidates.map((c) => `${c.name}@${c.to}:${c.kind}`)).toEqual(['@types/node@20.4.0:minor', 'left-pad@1.0.1:patch', 'zod@3.2.0:minor'])
    expect(held.skipped).toEqual([
      '@types/node 20.1.0 → 22.0.0: a major upgrade, held (allow-major is false)',
      'zod 3.1.0 → 4.0.0: a major upgrade, held (allow-major is false)'
    ])
    const allowed = upgradeCandidates(outdated, { ignore: [], allowMajor: true })
    expect(allowed.candidates.map((c) => `${c.name}@${c.to}`)).toEqual(['@types/node@22.0.0', '@types/node@20.4.0', 'left-pad@1.0.1', 'zod@4.0.0', 'zod@3.2.0'])
  })

  it('a 0.x minor and a 0.0.x patch are majors, as the caret applies them: held and labelled major', () => {
    const zero = [dep('esbuild', '0.20.0', '0.20.2', '0.28.2'), dep('tiny', '0.0.3', '0.0.3', '0.0.4'), dep('vite', '0.9.1', '0.9.4', '0.9.4')]
    const held = upgradeCandidates(zero, { ignore: [], allowMajor: false })
    expect(held.candidates.map((c) => `${c.name}@${c.to}:${c.kind}`)).toEqual(['esbuild@0.20.2:patch', 'vite@0.9.4:patch'])
    expect(held.skipped).toEqual([
      'esbuild 0.20.0 → 0.28.2: a major upgrade, held (allow-major is false)',
      'tiny 0.0.3 → 0.0.4: a major upgrade, held (allow-major is false)'
    ])
    const allowed = upgradeCandidates(zero, { ignore: [], allowMajor: true })
    expect(allowed.candidates.map((c) => `${c.name}@${c.to}:${c.kind}`)).toEqual([
      'esbuild@0.28.2:major',
      'esbuild@0.20.2:patch',
      'tiny@0.0.4:major',
      'vite@0.9.4:patch'
    ])
  })

  it('a pre-release is a candidate only for a dependency that is at one', () => {
    const r = upgradeCandidates([dep('zod', '3.1.0', '3.2.0', '4.0.0-beta.1'), dep('next', '15.0.0-rc.1', '15.0.0-rc.2', '15.0.0-rc.2')], {
      ignore: [],
      allowMajor: true
    })
    expect(r.candidates.map((c) => `${c.name}@${c.to}:${c.kind}`)).toEqual(['next@15.0.0-rc.2:patch', 'zod@3.2.0:minor'])
  })

  it('ignore skips a package, a wildcard, or only the versions in a range', () => {
    const r = upgradeCandidates(outdated, { ignore: rules('left-pad', '@types/*@>=21', 'zod@3.2.0'), allowMajor: true })
    expect(r.candidates.map((c) => `${c.name}@${c.to}`)).toEqual(['@types/node@20.4.0', 'zod@4.0.0'])
    expect(r.skipped).toEqual([
      '@types/node 20.1.0 → 22.0.0: ignored (@types/*@>=21)',
      'left-pad 1.0.0 → 1.0.1: ignored (left-pad)',
      'zod 3.1.0 → 3.2.0: ignored (zod@3.2.0)'
    ])
    expect(ignoredBy({ rules: rules('@types/node'), name: '@types/node', version: '1.0.0' })?.entry).toBe('@types/node')
    expect(parseIgnoreRule('zod@not a range')).toMatch(/not a version or range/)
    expect(parseIgnoreRule('bad name')).toMatch(/not a package name/)
  })

  const attempt = (over: Partial<UpgradeAttempt>): UpgradeAttempt => ({
    package: 'zod',
    from: '3.1.0',
    target: '4.0.0',
    baseCommit: 'a'.repeat(40),
    lockfileHash: 'lock-1',
    testsHash: 'tests-1',
    outcome: 'failed',
    fingerprint: 'fp',
    runId: '1-1',
    at: '2026-01-01T00:00:00.000Z',
    ...over
  })
  const base = { lockfileHash: 'lock-1', testsHash: 'tests-1' }
  const zod = (to: string) => ({ name: 'zod', from: '3.1.0', to, kind: 'major' as const, type: 'dependencies' as const })

  it('a failed package@version is retried only when a newer version appears, the lockfile changed or the tests changed', () => {
    const failed = [attempt({})]
    expect(blockingAttempt({ attempts: failed, candidate: zod('4.0.0'), base })).toBeDefined()
    expect(blockingAttempt({ attempts: failed, candidate: zod('4.0.1'), base })).toBeUndefined()
    expect(blockingAttempt({ attempts: failed, candidate: zod('3.2.0'), base })).toBeUndefined()
    expect(blockingAttempt({ attempts: failed, candidate: zod('4.0.0'), base: { ...base, lockfileHash: 'lock-2' } })).toBeUndefined()
    expect(blockingAttempt({ attempts: failed, candidate: zod('4.0.0'), base: { ...base, testsHash: 'tests-2' } })).toBeUndefined()
    expect(blockingAttempt({ attempts: [attempt({ outcome: 'bump-failed' })], candidate: zod('4.0.0'), base })).toBeDefined()
  })

  it('a verified upgrade holds the package at that version and below until the base changes', () => {
    const verified = [attempt({ outcome: 'verified', fingerprint: null })]
    expect(blockingAttempt({ attempts: verified, candidate: zod('4.0.0'), base })).toBeDefined()
    expect(blockingAttempt({ attempts: verified, candidate: zod('3.2.0'), base })).toBeDefined()
    expect(blockingAttempt({ attempts: verified, candidate: zod('4.1.0'), base })).toBeUndefined()
    expect(blockingAttempt({ attempts: verified, candidate: zod('4.0.0'), base: { ...base, lockfileHash: 'lock-2' } })).toBeUndefined()
  })

  it('the state keeps the newest attempt per package and version, bounded', () => {
    const merged = mergeUpgradeAttempts([attempt({}), attempt({ target: '3.2.0' })], [attempt({ outcome: 'verified', runId: '2-1' })])
    expect(merged.map((a) => `${a.target}:${a.outcome}`)).toEqual(['3.2.0:failed', '4.0.0:verified'])
    const many = mergeUpgradeAttempts(
      [],
      Array.from({ length: 150 }, (_, i) => attempt({ target: `4.0.${i}` }))
    )
    expect(many).toHaveLength(100)
    expect(many[99].target).toBe('4.0.149')
  })
})

describe('the dependency-upgrade inputs', () => {
  const read = (inputs: Record<string, string>) => () =>
    readSettings((name) => ({ agent: 'command', 'agent-command': 'true', 'gate-command': 'npm test', ...inputs })[name] ?? '', { GITHUB_WORKSPACE: '/tmp' })

  it('task replaces the prompt, and is refused next to one', () => {
    const s = read({ task: 'dependency-upgrade', ignore: 'left-pad, @types/*@>=21' })()
    expect(s).toMatchObject({ task: 'dependency-upgrade', promptSource: 'task: dependency-upgrade', ignore: ['left-pad', '@types/*@>=21'], allowMajor: false })
    expect(read({ task: 'dependency-upgrade', prompt: 'Fix it.' })).toThrow(ConfigError)
    expect(read({ task: 'dependency-upgrade', prompt: 'Fix it.' })).toThrow(/Input 'task'.*either 'task' or 'prompt'/)
    expect(read({ task: 'upgrade-everything' })).toThrow(/Input 'task'.*'dependency-upgrade'/)
    expect(read({})).toThrow(/Input 'prompt'.*'task'/)
  })

  it('a bad ignore entry or allow-major value fails before anything runs, naming the input', () => {
    expect(read({ task: 'dependency-upgrade', ignore: 'zod@banana' })).toThrow(/Input 'ignore' has the value "zod@banana"/)
    expect(read({ task: 'dependency-upgrade', 'allow-major': 'maybe' })).toThrow(/Input 'allow-major'/)
    expect(read({ task: 'dependency-upgrade', 'allow-major': 'true' })().allowMajor).toBe(true)
  })
})

describe('the dependency-upgrade state and pull request', () => {
  it('a state written before upgrades existed still parses; a bad attempt is named', () => {
    const old = { ...emptyState('deps') } as Record<string, unknown>
    delete old.upgradeAttempts
    expect(validateState(old, 'deps').upgradeAttempts).toEqual([])
    const bad = { ...emptyState('deps'), upgradeAttempts: [{ package: 'zod', outcome: 'maybe' }] }
    expect(() => validateState(bad, 'deps')).toThrow(/upgradeAttempts\[0\]\.outcome/)
  })

  it('titles the pull request as reviewers know it; its own branch per upgrade', () => {
    const ctx = (name: string) => ({ settings: { loopId: 'deps', prompt: '' }, upgrade: { name, from: '1.0.0', to: '2.0.0' } }) as unknown as PublishContext
    expect(pullRequestTitle(ctx('@types/node'))).toBe('chore(deps): bump @types/node from 1.0.0 to 2.0.0')
    const major = {
      settings: { loopId: 'deps', prompt: '' },
      upgrade: { name: 'esbuild', from: '0.20.0', to: '0.28.2', kind: 'major' }
    } as unknown as PublishContext
    expect(pullRequestTitle(major)).toBe('chore(deps): bump esbuild from 0.20.0 to 0.28.2 (major)')
    expect(pullRequestTitle(ctx('x fixes #1 @team'))).not.toMatch(/fixes #1|@team/)
    expect(bumpMessage({ name: 'zod', from: '3.1.0', to: '4.0.0' })).toBe('chore(deps): bump zod from 3.1.0 to 4.0.0')
    expect(upgradeBranch('deps', { name: '@types/node', to: '22.0.0-rc.1+build' })).toBe('loopgate/deps-bump-types-node-22.0.0-rc.1-build')
  })

  it('reads the repository the registry names as a browsable address', () => {
    expect(repositoryUrl({ type: 'git', url: 'git+https://github.com/colinhacks/zod.git' })).toBe('https://github.com/colinhacks/zod')
    expect(repositoryUrl('github:sindresorhus/left-pad')).toBe('https://github.com/sindresorhus/left-pad')
    expect(repositoryUrl('git@gitlab.com:group/proj.git')).toBe('https://gitlab.com/group/proj')
    expect(repositoryUrl({ url: 'javascript:alert(1)' })).toBeNull()
  })
})
