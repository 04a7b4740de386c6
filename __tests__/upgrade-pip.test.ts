import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseState } from '../src/state/parse.js'
import { parseIgnoreRule, type IgnoreRule } from '../src/upgrade/ignore.js'
import { comparePep440, parsePep440, PEP440 } from '../src/ecosystems/pip/pep440.js'
import { availableVersions, jsonApiUrl, PipPackageManager } from '../src/ecosystems/pip/manager.js'
import { packageManagerEnv } from '../src/upgrade/environment.js'
import { parsePins, rewritePin } from '../src/ecosystems/pip/requirements.js'
import { blockingAttempt, upgradeCandidates } from '../src/upgrade/select.js'
import type { UpgradeCandidate } from '../src/ecosystems/types.js'
import { upgradeLoop, type UpgradeLoop } from './helpers/upgrade-loop.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'

const LONG = 180_000

describe('requirements.txt pins', () => {
  const text = [
    '# the app',
    '-r base.txt',
    '-e ./vendored',
    '--index-url https://example.com/simple',
    'Requests[socks, security] == 2.31.0 ; python_version >= "3.8"  # http',
    'six==1.16.0',
    'flask>=2',
    'attrs',
    'exact===1.0',
    'wild==1.*',
    'hashed==1.0.0 \\',
    '    --hash=sha256:abc',
    'inline==1.0.0 --hash=sha256:abc',
    'url @ https://example.com/url-1.0.tar.gz',
    'pre==2.0.0rc1',
    'twice==1.0; sys_platform == "linux"',
    'twice==1.1; sys_platform != "linux"',
    'typing_extensions==4.7.1',
    ''
  ].join('\r\n')

  it('finds only exact pins: extras, markers and comments kept; options, ranges, hashes, continuations and URLs left alone', () => {
    expect(parsePins(text).map((p) => `${p.name}==${p.version}`)).toEqual([
      'Requests==2.31.0',
      'six==1.16.0',
      'pre==2.0.0rc1',
      'twice==1.0',
      'twice==1.1',
      'typing_extensions==4.7.1'
    ])
  })

  it('rewrites one pin, every other byte unchanged (CRLF, extras, marker, comment, name spelled another way)', () => {
    const out = rewritePin({ text, name: 'Requests', from: '2.31.0', to: '2.32.3' })!
    expect(out).toBe(text.replace('== 2.31.0 ;', '== 2.32.3 ;'))
    expect(rewritePin({ text, name: 'typing-extensions', from: '4.7.1', to: '4.12.2' })).toBe(
      text.replace('typing_extensions==4.7.1', 'typing_extensions==4.12.2')
    )
    // Not the pinned version, not pinned, pinned twice, or only in a comment: no rewrite.
    expect(rewritePin({ text, name: 'six', from: '1.15.0', to: '1.17.0' })).toBeNull()
    expect(rewritePin({ text, name: 'flask', from: '2', to: '3' })).toBeNull()
    expect(rewritePin({ text, name: 'twice', from: '1.0', to: '1.2' })).toBeNull()
    expect(rewritePin({ text, name: 'hashed', from: '1.0.0', to: '1.0.1' })).toBeNull()
    expect(rewritePin({ text: '# six==1.16.0\nsix==1.16.0  # six==1.16.0\n', name: 'six', from: '1.16.0', to: '1.17.0' })).toBe(
      '# six==1.16.0\nsix==1.17.0  # six==1.16.0\n'
    )
  })
})

describe('Python versions (PEP 440)', () => {
  const order = ['1.0.dev1', '1.0a1.dev1', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.0.post1.dev1', '1.0.post1', '1.0.1', '1.10', '2!0.1']
  it('orders versions as pip does', () => {
    const shuffled = [...order].reverse()
    expect(shuffled.sort((a, b) => comparePep440(parsePep440(a)!, parsePep440(b)!))).toEqual(order)
    expect(PEP440.compare('1.0', '1.0.0')).toBe(0)
    expect(PEP440.valid('1.0.*')).toBe(false)
    expect(PEP440.kind('1.9.3', '2.0')).toBe('major')
    expect(PEP440.kind('24.1', '24.2')).toBe('minor')
    expect(PEP440.kind('1.2', '1.2.1')).toBe('patch')
  })

  it('allow-major and ignore select pip upgrades as npm ones, and a verified upgrade holds older versions', () => {
    const rules = (...e: string[]): IgnoreRule[] => e.map((x) => parseIgnoreRule(x) as IgnoreRule)
    const outdated = [
      { name: 'django', current: '4.2', wanted: '5.1', latest: '5.1', type: 'dependencies' as const },
      { name: 'pytz', current: '2023.3', wanted: '2024.1', latest: '2024.1', type: 'dependencies' as const },
      { name: 'six', current: '1.15.0', wanted: '1.16.0', latest: '1.16.0', type: 'dependencies' as const }
    ]
    const held = upgradeCandidates(outdated, { ignore: rules('six@>=1.16'), allowMajor: false, versions: PEP440 })
    expect(held.candidates).toEqual([])
    expect(held.skipped).toEqual([
      'django 4.2 → 5.1: a major upgrade, held (allow-major is false)',
      'pytz 2023.3 → 2024.1: a major upgrade, held (allow-major is false)',
      'six 1.15.0 → 1.16.0: ignored (six@>=1.16)'
    ])
    const allowed = upgradeCandidates(outdated, { ignore: rules('pytz'), allowMajor: true, versions: PEP440 })
    expect(allowed.candidates.map((c) => `${c.name}@${c.to}:${c.kind}`)).toEqual(['django@5.1:major', 'six@1.16.0:minor'])
    const attempt = {
      package: 'django',
      from: '4.2',
      target: '5.1',
      baseCommit: 'a'.repeat(40),
      lockfileHash: 'l',
      testsHash: 't',
      outcome: 'verified' as const,
      fingerprint: null,
      runId: '1',
      at: '2026-01-01T00:00:00.000Z'
    }
    const django = (to: string): UpgradeCandidate => ({ name: 'django', from: '4.2', to, kind: 'major', type: 'dependencies' })
    const base = { lockfileHash: 'l', testsHash: 't' }
    expect(blockingAttempt({ attempts: [attempt], candidate: django('5.0.1'), base, versions: PEP440 })).toBeDefined()
    expect(blockingAttempt({ attempts: [attempt], candidate: django('5.1.1'), base, versions: PEP440 })).toBeUndefined()
  })

  it('reads pip index output and finds the JSON API next to a simple index', () => {
    expect(availableVersions('WARNING: x\nfoo (2.0.0)\nAvailable versions: 2.0.0, 1.10, 1.0.0rc1\n  INSTALLED: 1.0\n')).toEqual(['2.0.0', '1.10', '1.0.0rc1'])
    expect(availableVersions('foo (2.0.0)\n')).toBeNull()
    expect(jsonApiUrl('https://u:p@pypi.example.com/root/simple/', 'Foo', '1.0')?.href).toBe('https://u:p@pypi.example.com/root/pypi/Foo/1.0/json')
    expect(jsonApiUrl('https://example.com/repo/', 'foo', '1.0')).toBeNull()
    expect(jsonApiUrl('file:///opt/simple', 'foo', '1.0')).toBeNull()
  })

  it('passes the runner pip configuration to the package manager, not secrets', () => {
    const env = packageManagerEnv({ PATH: '/bin', PIP_INDEX_URL: 'https://i/simple', PIP_EXTRA_INDEX_URL: 'https://x/simple', GITHUB_TOKEN: 'g' })
    expect(env).toMatchObject({ PIP_INDEX_URL: 'https://i/simple', PIP_EXTRA_INDEX_URL: 'https://x/simple' })
    expect(env.GITHUB_TOKEN).toBeUndefined()
  })
})

const pip = new PipPackageManager()

describe('the pip package manager on a workspace', () => {
  const candidate: UpgradeCandidate = { name: 'six', from: '1.16.0', to: '1.17.0', kind: 'minor', type: 'dependencies' }

  it('detects a requirements.txt with an exact pin, bumps only that pin line and hashes the file', async () => {
    const ws = tempDir('loopgate-pip-ws-')
    writeFileSync(path.join(ws, 'requirements.txt'), 'flask>=2\n')
    expect(pip.detect(ws)).toBe(false)
    const text = '\ufeff# pins\r\nflask>=2\r\nsix==1.16.0 ; python_version >= "3"   # compat\r\nnaïve-comment==1.0  # é\r\n'
    writeFileSync(path.join(ws, 'requirements.txt'), text)
    expect(pip.detect(ws)).toBe(true)
    const before = pip.lockfileHash(ws)
    expect(await pip.bump({ workspace: ws, candidate })).toEqual({ ok: true })
    expect(readFileSync(path.join(ws, 'requirements.txt'), 'utf8')).toBe(text.replace('six==1.16.0', 'six==1.17.0'))
    expect(pip.lockfileHash(ws)).not.toBe(before)
    expect(pip.lockfileHash(ws)).toMatch(/^requirements\.txt:[0-9a-f]{32}$/)
    expect(await pip.bump({ workspace: ws, candidate })).toMatchObject({ ok: false, message: expect.stringContaining('no single pin six==1.16.0') })
  })

  it('refuses a symlinked requirements.txt: not detected, not hashed, its target never written', async () => {
    const ws = tempDir('loopgate-pip-ws-')
    const target = path.join(tempDir('loopgate-pip-target-'), 'elsewhere.txt')
    writeFileSync(target, 'six==1.16.0\n')
    symlinkSync(target, path.join(ws, 'requirements.txt'))
    expect(pip.detect(ws)).toBe(false)
    expect(pip.lockfileHash(ws)).toBe('none')
    expect(await pip.bump({ workspace: ws, candidate })).toMatchObject({ ok: false, message: expect.stringContaining('not a regular file') })
    expect(readFileSync(target, 'utf8')).toBe('six==1.16.0\n')
  })
})

let index: PackageIndex

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  index.publish('lg-mathlib', '1.0.0', { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' })
  index.publish('lg-mathlib', '1.1.0', { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' })
  index.publish(
    'lg-mathlib',
    '2.0.0',
    { 'lg_mathlib/__init__.py': 'def plus(a, b):\n    return a + b\n' },
    {
      Homepage: 'https://example.com/lg-mathlib',
      Changelog: 'https://example.com/lg-mathlib/changes'
    }
  )
  index.publish('lg-mathlib', '2.1.0rc1', { 'lg_mathlib/__init__.py': 'def plus(a, b):\n    return a + b\n' })
  index.publish('lg-beta', '0.9.0b1', { 'lg_beta/__init__.py': '' })
  index.publish('lg-beta', '0.9.0b2', { 'lg_beta/__init__.py': '' })
}, LONG)

afterAll(async () => {
  await index?.stop()
})

/** loopgate's package-manager environment on this runner, pip pointed at the local index. */
const pipEnv = (): NodeJS.ProcessEnv => packageManagerEnv({ ...process.env, ...index.env })

needs('python3', 'pip').describe('pip against a local package index', () => {
  it(
    'lists outdated pins with pip index versions: pre-releases only for a pre-release pin, unknown names noted',
    async () => {
      const ws = tempDir('loopgate-pip-ws-')
      writeFileSync(
        path.join(ws, 'requirements.txt'),
        'lg_mathlib[fast]==1.0.0 ; python_version >= "3"\nlg-beta==0.9.0b1\nlg-unknown-thing==1.0\nlg-beta-x>=1\n'
      )
      const { dependencies, notes } = await pip.outdated(ws, pipEnv())
      expect(dependencies).toEqual([
        { name: 'lg_mathlib', current: '1.0.0', wanted: '2.0.0', latest: '2.0.0', type: 'dependencies' },
        { name: 'lg-beta', current: '0.9.0b1', wanted: '0.9.0b2', latest: '0.9.0b2', type: 'dependencies' }
      ])
      expect(notes).toEqual(['not upgraded: lg-unknown-thing: the package index does not know it'])
    },
    LONG
  )

  it(
    'fails when pip cannot reach the index for any pin, rather than finding nothing to do',
    async () => {
      const ws = tempDir('loopgate-pip-ws-')
      writeFileSync(path.join(ws, 'requirements.txt'), 'lg-mathlib==1.0.0\n')
      const env = { ...pipEnv(), PIP_INDEX_URL: 'http://127.0.0.1:9/simple/', PIP_RETRIES: '1', PIP_TIMEOUT: '2', PIP_FIND_LINKS: '', PIP_EXTRA_INDEX_URL: '' }
      await expect(pip.outdated(ws, env)).rejects.toThrow(/pip index versions lg-mathlib failed \(1\): .*NewConnectionError/)
    },
    LONG
  )

  it(
    'finds release notes in the index JSON API, and none where the index has no JSON',
    async () => {
      const c = (to: string): UpgradeCandidate => ({ name: 'lg-mathlib', from: '1.0.0', to, kind: 'major', type: 'dependencies' })
      expect(await pip.releaseNotes({ workspace: '/', candidate: c('2.0.0'), env: pipEnv() })).toEqual(['Changelog: https://example.com/lg-mathlib/changes'])
      expect(await pip.releaseNotes({ workspace: '/', candidate: c('1.1.0'), env: pipEnv() })).toEqual([])
      expect(await pip.releaseNotes({ workspace: '/', candidate: c('2.0.0'), env: { ...pipEnv(), PIP_INDEX_URL: 'http://127.0.0.1:9/simple/' } })).toEqual([])
    },
    LONG
  )
})

/** A pytest project pinned to lg-mathlib 1.0.0, whose test goes through the call site. */
function project(): { ws: string; start: string } {
  const ws = makeRepo({
    'requirements.txt': '# runtime\nlg-mathlib==1.0.0  # math\n',
    '.gitignore': '.venv/\n__pycache__/\n',
    'calc.py': 'from lg_mathlib import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return result\n',
    'tests/test_calc.py': 'from calc import total\n\n\ndef test_total_adds_the_numbers():\n    assert total([1, 2, 3]) == 6\n'
  })
  return { ws, start: sh(ws, ['rev-parse', 'HEAD']).trim() }
}

function loop(ws: string): UpgradeLoop {
  return upgradeLoop(
    ws,
    { ...process.env, ...index.env },
    {
      'loop-id': 'pydeps',
      'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/python -m pip install -q -r requirements.txt`,
      'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider',
      'agent-env': 'PIP_INDEX_URL'
    }
  )
}

describe('task: dependency-upgrade (pip, against a local package index)', () => {
  needs('python3', 'pip', 'venv', 'pytest').it(
    'bumps the pin as its own commit, the agent fixes the call site, verified; the next run with nothing new spends nothing',
    async () => {
      const { ws, start } = project()
      const shared = sharedTempDir()
      const fix = `echo call >> ${shared}/calls; cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt.txt; sed -i 's/\\badd\\b/plus/g' calc.py`
      const deps = loop(ws)

      const { report } = await deps.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(report.stopReason).toBe('verified')
      expect(report.run?.iterations).toHaveLength(1)
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)

      const commits = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')
      expect(
        sh(ws, ['log', '--format=%s', `${start}..HEAD`])
          .trim()
          .split('\n')
          .reverse()
      ).toEqual(['chore(deps): bump lg-mathlib from 1.0.0 to 2.0.0', 'loopgate: iteration 1'])
      expect(sh(ws, ['diff', '--name-only', `${commits[0]}^`, commits[0]]).trim()).toBe('requirements.txt')
      expect(sh(ws, ['show', `${commits[0]}:requirements.txt`])).toBe('# runtime\nlg-mathlib==2.0.0  # math\n')
      expect(readFileSync(path.join(ws, 'calc.py'), 'utf8')).toContain('from lg_mathlib import plus')

      const prompt = readFileSync(path.join(shared, 'prompt.txt'), 'utf8')
      expect(prompt).toContain('Dependency upgrade: lg-mathlib from 1.0.0 to 2.0.0 (a major upgrade, in dependencies)')
      expect(prompt).toMatch(/on the bumped tree: failed/)
      expect(prompt).toMatch(/cannot import name 'add' from 'lg_mathlib'/)
      expect(prompt).toContain('- Changelog: https://example.com/lg-mathlib/changes')
      expect(prompt).not.toContain('node_modules')

      const [, titleFile] = report.published.files
      expect(readFileSync(titleFile, 'utf8').trim()).toBe('chore(deps): bump lg-mathlib from 1.0.0 to 2.0.0 (major)')

      // The next scheduled run: the same base, nothing new on the index.
      sh(ws, ['checkout', '-q', '-f', 'main'])
      sh(ws, ['reset', '-q', '--hard', start])
      sh(ws, ['clean', '-q', '-f', '-d', '-x'])
      const second = await deps.run({ 'allow-major': 'true', 'agent-command': fix })
      expect(second.report.stopReason).toBe('nothing-to-do')
      expect(second.report.run).toBeNull()
      expect(second.report.notes.join('\n')).toMatch(/lg-mathlib 1\.0\.0 → 2\.0\.0 verified in run pydeps-\d+-1/)
      expect(readFileSync(path.join(shared, 'calls'), 'utf8').trim().split('\n')).toHaveLength(1)
      const state = parseState(readFileSync(second.session.info.location.file, 'utf8'), 'pydeps')
      expect(state.upgradeAttempts).toMatchObject([
        { package: 'lg-mathlib', from: '1.0.0', target: '2.0.0', baseCommit: start, outcome: 'verified', fingerprint: null }
      ])
      rmSync(shared, { recursive: true, force: true })
    },
    LONG
  )
})
