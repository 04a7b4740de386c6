import { describe, expect, it } from '@jest/globals'
import { badHostEntry, hostAllowed, hostRules, loopbackPorts, proxiedLoopback } from '../src/isolation/allowed-hosts.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { networkSection } from '../src/publish/network-section.js'
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitRepository } from '../src/git/repository.js'
import { declaredRegistries, defaultAgentHosts, defaultGateHosts } from '../src/run/network.js'
import { makeRepo } from './helpers/repo.js'

describe('allowed-hosts', () => {
  const rules = hostRules(['registry.npmjs.org', '*.pythonhosted.org', 'api.example.com:8443', '127.0.0.1:5432'])

  it('matches exact names, names under a *.suffix (not the suffix itself) and a port when one is given', () => {
    expect(hostAllowed(rules, 'registry.npmjs.org', 443)).toBe(true)
    expect(hostAllowed(rules, 'REGISTRY.npmjs.org.', 443)).toBe(true)
    expect(hostAllowed(rules, 'evil-registry.npmjs.org', 443)).toBe(false)
    expect(hostAllowed(rules, 'registry.npmjs.org.evil.com', 443)).toBe(false)
    expect(hostAllowed(rules, 'files.pythonhosted.org', 443)).toBe(true)
    expect(hostAllowed(rules, 'pythonhosted.org', 443)).toBe(false)
    expect(hostAllowed(rules, 'evilpythonhosted.org', 443)).toBe(false)
    expect(hostAllowed(rules, 'api.example.com', 8443)).toBe(true)
    expect(hostAllowed(rules, 'api.example.com', 443)).toBe(false)
    expect(hostAllowed(hostRules(['*']), 'anything.example', 1)).toBe(true)
    expect(hostAllowed(hostRules([]), 'registry.npmjs.org', 443)).toBe(false)
  })

  it('relays a loopback port as it is, and keeps loopback direct unless a loopback name is allowed on every port', () => {
    expect(loopbackPorts(rules)).toEqual([5432])
    expect(proxiedLoopback(rules)).toEqual([])
    expect(proxiedLoopback(hostRules(['127.0.0.1']))).toEqual(['127.0.0.1'])
  })

  it('refuses what is not a host entry, and * with others, naming the input', () => {
    for (const bad of ['http://example.com', 'example.com/path', '*', 'ex ample.com', 'a.*.com', 'example.com:99999']) {
      if (bad !== '*') expect(badHostEntry(bad)).not.toBeNull()
    }
    const read = (inputs: Record<string, string>) => () => readSettings((name) => ({ prompt: 'x', 'gate-command': 'true', ...inputs })[name] ?? '', {})
    expect(read({ 'allowed-hosts': 'http://evil.example' })).toThrow(/Input 'allowed-hosts' has the value "http:\/\/evil.example"/)
    expect(read({ 'gate-allowed-hosts': '*, pypi.org' })).toThrow(/Input 'gate-allowed-hosts'.*`\*` alone/)
    expect(read({ 'allowed-hosts': 'pypi.org, *.npmjs.org' })().allowedHosts).toEqual(['pypi.org', '*.npmjs.org'])
  })

  it('shows what the agent asked for as inert text', () => {
    const body = networkSection([{ process: 'agent', kind: 'dns', host: '@maintainer`fixes #1', port: 53, count: 2 }])
    expect(body).toContain('| agent | DNS lookup of ')
    expect(body).not.toMatch(/(^|[^`])@maintainer/)
  })

  it('keeps the gate offline for its tests, and lets gate-setup reach the registries its install needs', () => {
    const workspace = makeRepo({ 'package.json': '{"name":"p","version":"1.0.0"}\n', 'package-lock.json': '{"lockfileVersion":3,"packages":{}}\n' })
    const settings = (inputs: Record<string, string>) =>
      readSettings((name) => ({ prompt: 'x', 'gate-command': 'npm test', 'working-directory': workspace, ...inputs })[name] ?? '', {})
    const env = { npm_config_registry: 'http://127.0.0.1:4873/', HOME: '/root' }
    expect(defaultGateHosts(settings({}), env)).toEqual([])
    const withSetup = defaultGateHosts(settings({ 'gate-setup': 'npm ci' }), env)
    expect(withSetup).toContain('registry.npmjs.org')
    expect(withSetup).toContain('127.0.0.1:4873')
  })

  it("lets gate-setup reach the package indexes the base's files declare, never those the candidate adds", async () => {
    const pyproject = [
      '[tool.poetry]',
      'name = "p"',
      '[[tool.poetry.source]]',
      'name = "company"',
      'url = "https://pypi.company.example/simple"',
      'priority = "primary"',
      '[[tool.poetry.source]]',
      'name = "local"',
      'url = "http://127.0.0.1:8765/simple/"',
      'priority = "supplemental"',
      ''
    ].join('\n')
    const workspace = makeRepo({
      'pyproject.toml': pyproject,
      'poetry.lock': '# empty\n',
      'requirements-dev.txt': '--extra-index-url https://extra.example.org/simple\npytest==8.0.0\n',
      'requirements/docs.txt': '-i https://docs-index.example.net/simple\n',
      'packages/py/pyproject.toml': '[[tool.uv.index]]\nname = "inner"\nurl = "https://inner.example.dev/simple"\n'
    })
    const base = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: workspace, encoding: 'utf8' }).trim()
    // The candidate names one more source: read from the base, it is not allowed.
    writeFileSync(path.join(workspace, 'pyproject.toml'), `${pyproject}[[tool.poetry.source]]\nname = "evil"\nurl = "https://exfil.example.com/simple"\n`)
    execFileSync('git', ['commit', '-qam', 'candidate'], { cwd: workspace })
    const declared = await declaredRegistries(GitRepository.plain(workspace), base)
    expect(declared.sort()).toEqual(['127.0.0.1:8765', 'docs-index.example.net', 'extra.example.org', 'pypi.company.example'])
    // A monorepo's package: its own files too.
    expect(await declaredRegistries(GitRepository.plain(workspace), base, 'packages/py')).toContain('inner.example.dev')
    const settings = (inputs: Record<string, string>) =>
      readSettings((name) => ({ prompt: 'x', 'gate-command': 'pytest', 'working-directory': workspace, ...inputs })[name] ?? '', {})
    const gate = defaultGateHosts(settings({ 'gate-setup': 'poetry install' }), {}, declared)
    expect(gate).toEqual(expect.arrayContaining(['pypi.org', 'pypi.company.example', '127.0.0.1:8765', 'extra.example.org']))
    expect(gate).not.toContain('exfil.example.com')
    // Without a setup the gate stays offline; the agent may reach them too.
    expect(defaultGateHosts(settings({}), {}, declared)).toEqual([])
    expect(defaultAgentHosts(settings({}), {}, declared)).toEqual(expect.arrayContaining(['pypi.company.example', 'extra.example.org']))
  })
})
