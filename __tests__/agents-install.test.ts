import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ensureAgentCli, onPath } from '../src/agents/install.js'
import { agentSpec } from '../src/agents/agent-registry.js'
import { tempDir } from './helpers/repo.js'

const PINNED_AGENTS = { claude: agentSpec('claude').cli!, codex: agentSpec('codex').cli! }

/** A stand-in for npm that "installs" a package the way npm lays it out, and counts its calls. */
function fakeNpm(dir: string): { npm: string; calls: () => string[] } {
  const log = path.join(dir, 'npm-calls.log')
  const npm = path.join(dir, 'npm')
  writeFileSync(
    npm,
    [
      '#!/bin/bash',
      `echo "$*" >> "${log}"`,
      'prefix=""; spec=""',
      'while [ $# -gt 0 ]; do case "$1" in --prefix) prefix="$2"; shift 2;; --*) shift;; install) shift;; *) spec="$1"; shift;; esac; done',
      'pkg="${spec%@*}"; ver="${spec##*@}"',
      'mkdir -p "$prefix/node_modules/$pkg/bin" "$prefix/node_modules/.bin"',
      'printf "#!/bin/sh\\necho %s %s\\n" "$pkg" "$ver" > "$prefix/node_modules/$pkg/bin/cli"',
      'chmod +x "$prefix/node_modules/$pkg/bin/cli"',
      'name=claude; case "$pkg" in *codex*) name=codex;; esac',
      'ln -s "../$pkg/bin/cli" "$prefix/node_modules/.bin/$name"',
      ''
    ].join('\n')
  )
  chmodSync(npm, 0o755)
  return { npm, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) }
}

test('not on PATH: npm installs the pinned version into the tool cache; the next run restores it', async () => {
  const dir = tempDir('loopgate-install-')
  const { npm, calls } = fakeNpm(dir)
  const env = { PATH: '/usr/bin:/bin', RUNNER_TOOL_CACHE: path.join(dir, 'toolcache'), RUNNER_TEMP: path.join(dir, 'temp') }
  const lines: string[] = []
  const first = await ensureAgentCli('claude', { path: '', env, npm, report: (l) => lines.push(l) })
  expect(first.source).toBe('npm')
  expect(first.version).toBe(PINNED_AGENTS.claude.version)
  expect(first.binary.startsWith(env.RUNNER_TOOL_CACHE)).toBe(true)
  expect(execFileSync(first.binary, { encoding: 'utf8' }).trim()).toBe(`@anthropic-ai/claude-code ${PINNED_AGENTS.claude.version}`)
  expect(calls()).toHaveLength(1)
  expect(calls()[0]).toContain(`@anthropic-ai/claude-code@${PINNED_AGENTS.claude.version}`)
  expect(lines.join('\n')).toMatch(/claude: installed with npm \(.*\) in \d+\.\d s/)

  const second = await ensureAgentCli('claude', { path: '', env, npm, report: (l) => lines.push(l) })
  expect(second.source).toBe('tool-cache')
  expect(second.binary).toBe(first.binary)
  expect(calls()).toHaveLength(1)
  expect(lines.at(-1)).toMatch(/claude: restored from the tool cache .* in \d+\.\d s/)
})

test('agent-version picks another version for codex; a CLI on PATH is used as it is', async () => {
  const dir = tempDir('loopgate-install-')
  const { npm, calls } = fakeNpm(dir)
  const env = { PATH: '/usr/bin:/bin', RUNNER_TOOL_CACHE: path.join(dir, 'toolcache'), RUNNER_TEMP: path.join(dir, 'temp') }
  const r = await ensureAgentCli('codex', { path: '', env, npm, version: '0.170.0' })
  expect(r.source).toBe('npm')
  expect(execFileSync(r.binary, { encoding: 'utf8' }).trim()).toBe('@openai/codex 0.170.0')

  const bin = path.join(dir, 'bin')
  execFileSync('mkdir', ['-p', bin])
  writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\necho local\n')
  chmodSync(path.join(bin, 'codex'), 0o755)
  expect(onPath('codex', `/nonexistent:${bin}`)).toBe(path.join(bin, 'codex'))
  const onpath = await ensureAgentCli('codex', { path: bin, env, npm })
  expect(onpath.source).toBe('path')
  expect(onpath.binary).toBe(path.join(bin, 'codex'))
  expect(calls()).toHaveLength(1)
})

test('a failing npm install names the package and fails', async () => {
  const dir = tempDir('loopgate-install-')
  const npm = path.join(dir, 'npm')
  writeFileSync(npm, '#!/bin/sh\necho "E404 not found" >&2\nexit 1\n')
  chmodSync(npm, 0o755)
  const env = { PATH: '/usr/bin:/bin', RUNNER_TOOL_CACHE: path.join(dir, 'toolcache'), RUNNER_TEMP: path.join(dir, 'temp') }
  await expect(ensureAgentCli('claude', { path: '', env, npm })).rejects.toThrow(/npm install @anthropic-ai\/claude-code@2\.1\.328 failed: E404/)
})

test('an install that fails on the network twice is tried again and succeeds; a missing package is not retried', async () => {
  const dir = tempDir('loopgate-install-')
  const { npm: realFake, calls } = fakeNpm(dir)
  // npm that drops the connection on its first two runs, as the registry does now and then.
  const count = path.join(dir, 'attempts')
  const npm = path.join(dir, 'flaky-npm')
  writeFileSync(
    npm,
    `#!/bin/sh\necho x >> "${count}"\nif [ "$(wc -l < "${count}")" -le 2 ]; then echo "npm ERR! code ECONNRESET" >&2; echo "npm ERR! network aborted" >&2; exit 1; fi\nexec "${realFake}" "$@"\n`
  )
  chmodSync(npm, 0o755)
  const env = { PATH: '/usr/bin:/bin', RUNNER_TOOL_CACHE: path.join(dir, 'toolcache'), RUNNER_TEMP: path.join(dir, 'temp') }
  const lines: string[] = []
  const r = await ensureAgentCli('claude', { path: '', env, npm, retry: { baseDelayMs: 10 }, report: (l) => lines.push(l) })
  expect(r.source).toBe('npm')
  expect(readFileSync(count, 'utf8').trim().split('\n')).toHaveLength(3)
  expect(calls()).toHaveLength(1)
  expect(lines.filter((l) => /attempt \d failed on the network; trying again/.test(l))).toHaveLength(2)

  const missing = path.join(dir, 'missing-npm')
  const missingCount = path.join(dir, 'missing-attempts')
  writeFileSync(missing, `#!/bin/sh\necho x >> "${missingCount}"\necho "npm ERR! code E404" >&2\nexit 1\n`)
  chmodSync(missing, 0o755)
  const env2 = { ...env, RUNNER_TOOL_CACHE: path.join(dir, 'toolcache2') }
  await expect(ensureAgentCli('codex', { path: '', env: env2, npm: missing, retry: { baseDelayMs: 10 } })).rejects.toThrow(/E404/)
  expect(readFileSync(missingCount, 'utf8').trim().split('\n')).toHaveLength(1)
})
