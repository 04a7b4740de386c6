/** Projects whose version comes from git: the gate's checkout has no repository, so loopgate passes the base's version. */
import { attackProject, runAttack } from './helpers/gate-fixture.js'
import { buildsPythonPackage, vcsVersion } from '../src/gate/toolchain/vcs-version.js'
import { makeRepo, sh } from './helpers/repo.js'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitRepository } from '../src/git/repository.js'

function commit(repo: string, name: string): string {
  writeFileSync(path.join(repo, name), `${name}\n`)
  sh(repo, ['add', name])
  sh(repo, ['commit', '-qm', name])
  return sh(repo, ['rev-parse', 'HEAD']).trim()
}

test("the version is setuptools-scm's for the commit: the tag, the next dev release past it, 0.1.devN without one", async () => {
  const repo = makeRepo({ 'a.txt': 'a\n' })
  const first = sh(repo, ['rev-parse', 'HEAD']).trim()
  const short = (c: string): string => sh(repo, ['rev-parse', '--short=7', c]).trim()
  expect(await vcsVersion(GitRepository.plain(repo), first)).toBe(`0.1.dev1+g${short(first)}`)
  sh(repo, ['tag', 'v1.2.3'])
  expect(await vcsVersion(GitRepository.plain(repo), first)).toBe('1.2.3')
  commit(repo, 'b.txt')
  const third = commit(repo, 'c.txt')
  expect(await vcsVersion(GitRepository.plain(repo), third)).toBe(`1.2.4.dev2+g${short(third)}`)
  sh(repo, ['tag', '2.0rc1'])
  const fourth = commit(repo, 'd.txt')
  expect(await vcsVersion(GitRepository.plain(repo), fourth)).toBe(`2.0rc1.post1+g${short(fourth)}`)
})

test("the gate gets SETUPTOOLS_SCM_PRETEND_VERSION from the base's tag, and still no repository", async () => {
  const files = attackProject()
  files['test/run.mjs'] = [
    "import { spawnSync } from 'node:child_process'",
    "import { existsSync } from 'node:fs'",
    "import { check, done } from 'minicheck'",
    "import { add } from '../src/math.mjs'",
    "check('math adds two numbers', add(2, 3), 5)",
    "check('the version is the base tag', process.env.SETUPTOOLS_SCM_PRETEND_VERSION, '1.2.3')",
    "check('the checkout has no repository', existsSync('.git') || spawnSync('git', ['rev-parse', '--git-dir']).status === 0, false)",
    'done()',
    ''
  ].join('\n')
  const r = await runAttack({
    isolation: 'auto',
    files,
    prepare: (ws) => void sh(ws, ['tag', 'v1.2.3']),
    script: "sed -i 's/a - b/a + b/' src/math.mjs\n"
  })
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain('✓ the version is the base tag')
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain('✓ the checkout has no repository')
  expect(r.report.stopReason).toBe('verified')
})

test('a tree without a Python build declaration gets no version from git: its gate has no backend to read one', async () => {
  const files = attackProject()
  delete files['pyproject.toml']
  files['test/run.mjs'] = [
    "import { check, done } from 'minicheck'",
    "import { add } from '../src/math.mjs'",
    "check('math adds two numbers', add(2, 3), 5)",
    "check('no version is given', process.env.SETUPTOOLS_SCM_PRETEND_VERSION, undefined)",
    'done()',
    ''
  ].join('\n')
  const r = await runAttack({
    isolation: 'weak',
    files,
    prepare: (ws) => void sh(ws, ['tag', 'v1.2.3']),
    script: "sed -i 's/a - b/a + b/' src/math.mjs\n"
  })
  expect(r.report.run?.iterations[0].gate?.outputTail).toContain('✓ no version is given')
  expect(r.report.stopReason).toBe('verified')
})

test('a Python build declaration at any depth (a package in a subfolder of a monorepo) counts', () => {
  expect(buildsPythonPackage(['package.json', 'src/a.js'])).toBe(false)
  expect(buildsPythonPackage(['package.json', 'tools/lint/pyproject.toml'])).toBe(true)
  expect(buildsPythonPackage(['setup.py'])).toBe(true)
  expect(buildsPythonPackage(['lib/setup.cfg'])).toBe(true)
  expect(buildsPythonPackage(['docs/pyproject.toml.md', 'setup.py.bak'])).toBe(false)
})
