import { spawnSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brokenBaseline, describeBroken } from '../src/gate/baseline/baseline-health.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { needs } from './helpers/needs-tools.js'
import { tempDir } from './helpers/repo.js'

/** A failed gate-setup is explained by the tool's error lines, not by its last line of boilerplate. */

const failed: GateVerdict = { passed: false, reason: 'exit 1', exitCode: 1, timedOut: false, failures: [], fingerprint: null, outputTail: '', durationMs: 1 }
const setupEnd = { step: 'setup' as const, exitCode: 1, signal: null, timedOut: false, aborted: false }

function explain(output: string): string {
  const broken = brokenBaseline({ end: setupEnd, verdict: failed, output }, 60_000)
  if (!broken) throw new Error('not broken')
  return describeBroken(broken)
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env })
  expect(r.status).not.toBe(0)
  return `${r.stdout}${r.stderr}`
}

describe('a failed gate-setup, explained', () => {
  it('npm offline without the package in its cache: the request that failed, not where the log is', () => {
    const dir = tempDir('loopgate-npm-offline-')
    writeFileSync(path.join(dir, 'package.json'), '{"name":"p","version":"1.0.0","dependencies":{"left-pad":"99.0.0"}}\n')
    const cache = tempDir('loopgate-npm-cache-')
    const output = run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', cache], dir)
    expect(output).toMatch(/A complete log of this run can be found/)
    const message = explain(output)
    expect(message).toContain('ENOTCACHED')
    expect(message).toMatch(/request to \S+left-pad failed/)
    expect(message).not.toContain('A complete log')
  })

  needs('venv').it('pip failing to build a package: the missing requirement, not "see above"', () => {
    const dir = tempDir('loopgate-pip-build-')
    mkdirSync(path.join(dir, 'pkg'))
    writeFileSync(
      path.join(dir, 'pkg', 'pyproject.toml'),
      '[build-system]\nrequires = ["setuptools>=64", "setuptools-scm>=8"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "pkg"\ndynamic = ["version"]\n'
    )
    spawnSync('python3', ['-m', 'venv', path.join(dir, 'v')], { cwd: dir })
    const output = run(path.join(dir, 'v', 'bin', 'pip'), ['install', '--no-index', '-e', './pkg'], dir, { ...process.env, PIP_CONFIG_FILE: '/dev/null' })
    expect(output).toMatch(/originates from a subprocess/)
    const message = explain(output)
    expect(message).toContain('No matching distribution found for setuptools>=64')
    expect(message).not.toMatch(/originates from a subprocess|See above/)
  })

  it('a tool that prints no error line is still quoted by its last line', () => {
    expect(explain('building…\ndone with 3 problems\n')).toContain('done with 3 problems')
  })
})
