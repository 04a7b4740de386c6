import { ConfigError } from '../src/inputs.js'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { resolveBase } from '../src/gate/base.js'
import { repoConfigOverrides } from '../src/git/git.js'
import { stashCredentials } from '../src/isolation/credentials.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

function upstream(): { origin: string; mainSha: string; featureSha: string } {
  const origin = makeRepo({ 'tests/a.test.js': 'base\n' })
  const mainSha = sh(origin, ['rev-parse', 'HEAD']).trim()
  sh(origin, ['checkout', '-q', '-b', 'feature'])
  writeFileSync(path.join(origin, 'tests/a.test.js'), 'feature\n')
  sh(origin, ['commit', '-qam', 'feature'])
  const featureSha = sh(origin, ['rev-parse', 'HEAD']).trim()
  sh(origin, ['checkout', '-q', 'main'])
  return { origin, mainSha, featureSha }
}

describe('resolving the base', () => {
  test('no remote: the current branch', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const base = await resolveBase(ws, { env: {} })
    expect(base).toEqual({ sha: sh(ws, ['rev-parse', 'HEAD']).trim(), source: 'current branch main' })
  })

  test('a clone on a feature branch: origin/HEAD, the default branch', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'clone')
    sh(path.dirname(ws), ['clone', '-q', origin, ws])
    sh(ws, ['checkout', '-q', 'feature'])
    expect(await resolveBase(ws, { env: {} })).toEqual({ sha: mainSha, source: 'origin/HEAD' })
  })

  test('base-ref wins over the default branch', async () => {
    const { origin, featureSha } = upstream()
    const ws = path.join(tempDir(), 'clone')
    sh(path.dirname(ws), ['clone', '-q', origin, ws])
    expect(await resolveBase(ws, { env: {}, baseRef: 'feature' })).toEqual({ sha: featureSha, source: 'base-ref feature' })
  })

  test('pull_request: the PR base from GITHUB_EVENT_PATH, fetched when the checkout is shallow', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'shallow')
    sh(path.dirname(ws), ['clone', '-q', '--depth=1', '--single-branch', '--branch', 'feature', `file://${origin}`, ws])
    const event = path.join(tempDir(), 'event.json')
    writeFileSync(event, JSON.stringify({ pull_request: { base: { ref: 'main', sha: mainSha }, head: { ref: 'feature' } } }))
    const base = await resolveBase(ws, { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event } })
    expect(base).toEqual({ sha: mainSha, source: 'pull_request base main' })
  })

  test('a shallow clone without the base-ref branch: fetched', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'shallow')
    sh(path.dirname(ws), ['clone', '-q', '--depth=1', '--single-branch', '--branch', 'feature', `file://${origin}`, ws])
    expect(await resolveBase(ws, { env: {}, baseRef: 'main' })).toEqual({ sha: mainSha, source: 'base-ref main' })
  })

  test('an unknown base is a config error naming base-ref, not a silent fallback', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const attempt = resolveBase(ws, { env: {}, baseRef: 'nope' })
    await expect(attempt).rejects.toBeInstanceOf(ConfigError)
    await expect(attempt).rejects.toThrow(/Input 'base-ref' has the value "nope"/)
  })
})

describe('credentials and git hardening', () => {
  test('the persisted extraheader (direct and included, as actions/checkout writes it) is stashed and removed', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const dir = tempDir()
    const included = path.join(dir, 'git-credentials-x.config')
    writeFileSync(included, '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic INCLUDED_SECRET\n')
    sh(ws, ['config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic DIRECT_SECRET'])
    sh(ws, ['config', `includeIf.gitdir:${ws}/.git.path`, included])
    const stashFile = path.join(dir, 'stash.json')
    const r = await stashCredentials(ws, stashFile)
    expect(r.auth).toEqual(['http.https://github.com/.extraheader=AUTHORIZATION: basic DIRECT_SECRET', 'http.https://github.com/.extraheader=AUTHORIZATION: basic INCLUDED_SECRET'])
    const config = readFileSync(path.join(ws, '.git/config'), 'utf8')
    expect(config).not.toMatch(/SECRET|extraheader|includeIf/)
    expect(sh(ws, ['config', '--list'])).not.toContain('SECRET')
    expect(existsSync(stashFile)).toBe(true)
  })

  test('every filter, diff driver and per-URL credential helper in the repo config (includes too) is overridden', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const inc = path.join(tempDir(), 'inc.cfg')
    writeFileSync(inc, '[filter "hidden"]\n\tsmudge = touch /tmp/x\n')
    sh(ws, ['config', 'filter.evil.clean', 'touch /tmp/x'])
    sh(ws, ['config', 'diff.evil.textconv', 'touch /tmp/x'])
    sh(ws, ['config', 'credential.https://github.com.helper', '!touch /tmp/x'])
    sh(ws, ['config', 'include.path', inc])
    const overrides = await repoConfigOverrides(ws)
    expect(overrides).toEqual(
      expect.arrayContaining([
        'filter.evil.clean=',
        'filter.evil.required=false',
        'diff.evil.textconv=',
        'credential.https://github.com.helper=',
        'filter.hidden.smudge=',
        'filter.hidden.required=false'
      ])
    )
  })
})
