import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
// @ts-expect-error plain ESM module of the jest global setup, without types
import { linkAgentClis, needsLinkedClis, othersCanReach, removeAgentClis } from './setup/agent-clis.mjs'
import { agentUser } from './helpers/agent-user.js'
import { needs } from './helpers/needs-tools.js'
import { tempDir } from './helpers/repo.js'

const whenRoot = needs('second-user').test

/** node_modules laid out as npm does for the two CLIs: codex finds its platform package by name. */
function fakeModules(parent: string): string {
  const modules = path.join(parent, 'node_modules')
  const write = (file: string, text: string, mode = 0o644) => {
    mkdirSync(path.dirname(path.join(modules, file)), { recursive: true })
    writeFileSync(path.join(modules, file), text, { mode })
  }
  write('@anthropic-ai/claude-code/package.json', JSON.stringify({ name: '@anthropic-ai/claude-code', bin: { claude: 'bin/claude.exe' } }))
  write('@anthropic-ai/claude-code/bin/claude.exe', '#!/bin/sh\necho claude as $(id -un)\n', 0o755)
  write(
    '@openai/codex/package.json',
    JSON.stringify({
      name: '@openai/codex',
      bin: { codex: 'bin/codex.sh' },
      optionalDependencies: { '@openai/codex-linux-x64': '1', '@openai/codex-darwin-arm64': '1' }
    })
  )
  write('@openai/codex/bin/codex.sh', '#!/bin/sh\nexec "$(dirname "$(readlink -f "$0")")/../../codex-linux-x64/vendor/codex"\n', 0o755)
  write('@openai/codex-linux-x64/package.json', JSON.stringify({ name: '@openai/codex-linux-x64' }))
  write('@openai/codex-linux-x64/vendor/codex', '#!/bin/sh\necho codex as $(id -un)\n', 0o755)
  return modules
}

whenRoot('the CLIs of a clone in a private folder are linked where the test user can run them', () => {
  const user = agentUser()
  const secret = tempDir('loopgate-private-')
  chmodSync(secret, 0o700)
  const modules = fakeModules(path.join(secret, 'clone'))
  const runAs = (bin: string) => spawnSync(bin, [], { uid: user.uid, gid: user.gid, encoding: 'utf8', env: { PATH: '/usr/bin:/bin' } })

  expect(othersCanReach(modules)).toBe(false)
  expect(needsLinkedClis(modules)).toBe(true)
  expect(runAs(path.join(modules, '@anthropic-ai/claude-code/bin/claude.exe')).status).not.toBe(0)

  const root = linkAgentClis(modules)
  try {
    const bin = path.join(root, 'node_modules', '.bin')
    expect(othersCanReach(bin)).toBe(true)
    expect(runAs(path.join(bin, 'claude')).stdout.trim()).toBe(`claude as ${user.name}`)
    expect(runAs(path.join(bin, 'codex')).stdout.trim()).toBe(`codex as ${user.name}`)
    // Only what is installed is linked; the private folder stays closed.
    expect(existsSync(path.join(root, 'node_modules', '@openai', 'codex-darwin-arm64'))).toBe(false)
    expect(othersCanReach(modules)).toBe(false)
  } finally {
    removeAgentClis(root)
  }
  expect(existsSync(root)).toBe(false)
})
