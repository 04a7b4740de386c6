import { GitRepository } from '../src/git/repository.js'
/**
 * loopgate's own commits (the setup commit that puts the protected paths back to the base, the
 * bump commit of an upgrade) are held to the publishable tree's rules like the agent's: no
 * workflow change, no nested repository, nothing ignored.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { commitBump } from '../src/upgrade/prepare.js'
import { attackProject, gitIn, runAttack } from './helpers/gate-fixture.js'
import { makeRepo, sh } from './helpers/repo.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
const WORKFLOW = '.github/workflows/ci.yml'

function write(dir: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
  writeFileSync(path.join(dir, file), text)
}

function filesOf(dir: string, commit: string): string[] {
  return sh(dir, ['show', '--format=', '--name-only', commit]).split('\n').filter(Boolean).sort()
}

const candidate = { name: 'lib', from: '1.0.0', to: '1.1.0', kind: 'minor' } as unknown as Parameters<typeof commitBump>[0]['candidate']

describe('the bump commit', () => {
  test('a workflow file, a nested repository and an ignored file the package manager wrote or named stay out of the bump commit', async () => {
    const dir = makeRepo({ 'package.json': '{"dependencies":{"lib":"1.0.0"}}\n', [WORKFLOW]: 'on: push\n', '.gitignore': 'cache/\n' })
    const start = sh(dir, ['rev-parse', 'HEAD']).trim()
    write(dir, 'package.json', '{"dependencies":{"lib":"1.1.0"}}\n')
    write(dir, WORKFLOW, 'on: push\njobs: {steal: {runs-on: x}}\n')
    write(dir, 'vendor/dep/index.js', 'module.exports = 1\n')
    sh(path.join(dir, 'vendor/dep'), ['init', '-q'])
    sh(path.join(dir, 'vendor/dep'), ['add', '-A'])
    sh(path.join(dir, 'vendor/dep'), ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'dep'])
    write(dir, 'cache/lib.tgz', 'tarball\n')
    const files = ['package.json', WORKFLOW, 'vendor/dep/', 'vendor/dep', 'cache/lib.tgz']
    const committed = await commitBump({ repository: GitRepository.plain(dir), files, candidate })
    expect(committed).not.toBeNull()
    expect(committed!.files).toEqual(['package.json'])
    expect(sh(dir, ['rev-parse', 'HEAD']).trim()).toBe(committed!.commit)
    expect(sh(dir, ['rev-parse', 'HEAD^']).trim()).toBe(start)
    expect(filesOf(dir, committed!.commit)).toEqual(['package.json'])
    expect(sh(dir, ['log', '-1', '--format=%s'])).toContain('chore(deps): bump lib from 1.0.0 to 1.1.0')
    expect(sh(dir, ['ls-tree', '-r', 'HEAD', '--', '.github', 'vendor'])).not.toContain('commit ')
    expect(sh(dir, ['cat-file', 'blob', `HEAD:${WORKFLOW}`])).toBe('on: push\n')
  })

  test('a bump that changed only a workflow file commits nothing', async () => {
    const dir = makeRepo({ 'package.json': '{}\n', [WORKFLOW]: 'on: push\n' })
    write(dir, WORKFLOW, 'on: pull_request\n')
    expect(await commitBump({ repository: GitRepository.plain(dir), files: ['package.json', WORKFLOW], candidate })).toBeNull()
  })
})

describe('the setup commit', () => {
  test('the protected paths go back to the base in their own commit, but a workflow put back stays out of it', async () => {
    let start = ''
    const r = await runAttack({
      isolation: 'weak',
      files: { ...attackProject(), [WORKFLOW]: 'on: push\n' },
      inputs: { 'base-ref': 'main' },
      prepare: (ws) => {
        gitIn(ws, ['checkout', '-q', '-b', 'feature'])
        write(ws, 'test/run.mjs', "console.log('✓ math adds two numbers')\n")
        write(ws, WORKFLOW, 'on: pull_request\n')
        gitIn(ws, ['-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qam', 'feature'])
        start = gitIn(ws, ['rev-parse', 'HEAD']).trim()
      },
      script: FIX
    })
    expect(r.report.stopReason).toBe('verified')
    const setup = gitIn(r.ws, ['log', '--format=%H %s', `${start}..HEAD`])
      .split('\n')
      .find((l) => l.includes('loopgate: protected paths from the base'))
    expect(setup).toBeDefined()
    const files = filesOf(r.ws, setup!.split(' ')[0])
    expect(files).toContain('test/run.mjs')
    expect(files).not.toContain(WORKFLOW)
    const all = gitIn(r.ws, ['log', '--format=', '--name-only', `${start}..HEAD`])
    expect(all).not.toContain(WORKFLOW)
    expect(r.log).toContain('workflow files are never committed by loopgate')
  })
})
