import { ConfigError } from '../src/errors.js'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { resolveBase } from '../src/gate/baseline/base.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'
import { GitRepository } from '../src/git/repository.js'

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
    const base = await resolveBase(GitRepository.plain(ws), { env: {} })
    expect(base).toEqual({ sha: sh(ws, ['rev-parse', 'HEAD']).trim(), source: 'current branch main' })
  })

  test('a clone on a feature branch: origin/HEAD, the default branch', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'clone')
    sh(path.dirname(ws), ['clone', '-q', origin, ws])
    sh(ws, ['checkout', '-q', 'feature'])
    expect(await resolveBase(GitRepository.plain(ws), { env: {} })).toEqual({ sha: mainSha, source: 'origin/HEAD' })
  })

  test('base-ref wins over the default branch', async () => {
    const { origin, featureSha } = upstream()
    const ws = path.join(tempDir(), 'clone')
    sh(path.dirname(ws), ['clone', '-q', origin, ws])
    expect(await resolveBase(GitRepository.plain(ws), { env: {}, baseRef: 'feature' })).toEqual({ sha: featureSha, source: 'base-ref feature' })
  })

  test('pull_request: the PR base from GITHUB_EVENT_PATH, fetched when the checkout is shallow', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'shallow')
    sh(path.dirname(ws), ['clone', '-q', '--depth=1', '--single-branch', '--branch', 'feature', `file://${origin}`, ws])
    const event = path.join(tempDir(), 'event.json')
    writeFileSync(event, JSON.stringify({ pull_request: { base: { ref: 'main', sha: mainSha }, head: { ref: 'feature' } } }))
    const base = await resolveBase(GitRepository.plain(ws), { env: { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: event } })
    expect(base).toEqual({ sha: mainSha, source: 'pull_request base main' })
  })

  test('a shallow clone without the base-ref branch: fetched', async () => {
    const { origin, mainSha } = upstream()
    const ws = path.join(tempDir(), 'shallow')
    sh(path.dirname(ws), ['clone', '-q', '--depth=1', '--single-branch', '--branch', 'feature', `file://${origin}`, ws])
    expect(await resolveBase(GitRepository.plain(ws), { env: {}, baseRef: 'main' })).toEqual({ sha: mainSha, source: 'base-ref main' })
  })

  test('an unknown base is a config error naming base-ref, not a silent fallback', async () => {
    const ws = makeRepo({ 'a.txt': 'a' })
    const attempt = resolveBase(GitRepository.plain(ws), { env: {}, baseRef: 'nope' })
    await expect(attempt).rejects.toBeInstanceOf(ConfigError)
    await expect(attempt).rejects.toThrow(/Input 'base-ref' has the value "nope"/)
  })
})
