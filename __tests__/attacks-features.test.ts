/**
 * Forged feature flips, through the whole engine (executeRun) on a real git repository, the
 * protected gate writing a TAP report, the scripted command agent running as the agent user.
 */
import { GitRepository } from '../src/git/repository.js'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { remoteFromEnv } from '../src/git/clean-clone.js'
import type { GitHubClient } from '../src/github/client.js'
import { GitHubPublisher } from '../src/publish/github/publisher.js'
import { GitWorkspace } from '../src/git/workspace.js'
import { publishRulesAt } from './helpers/publish-rules.js'
import { attackProject, gitIn, runAttack, type AttackResult } from './helpers/gate-fixture.js'
import { makeRepo, sh, sharedTempDir, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
const FLIP_ALL = `sed -i 's/"passes": false/"passes": true/g' features.json\n`
const TAP_GATE = { 'gate-command': 'node test/tap.mjs > report.tap', 'gate-report': 'report.tap', 'features-file': 'features.json' }

function tapProject(features: { id: string; test: string }[]): Record<string, string> {
  return {
    ...attackProject(),
    'test/tap.mjs': [
      "import { add } from '../src/math.mjs'",
      "console.log('TAP version 13')",
      "console.log('1..2')",
      "console.log(add(2, 3) === 5 ? 'ok 1 - adds two' : 'not ok 1 - adds two')",
      "console.log(add(0, 0) === 0 ? 'ok 2 - adds zero' : 'not ok 2 - adds zero')",
      'if (add(2, 3) !== 5) process.exit(1)',
      ''
    ].join('\n'),
    'features.json': `${JSON.stringify(
      features.map((f) => ({ ...f, passes: false })),
      null,
      2
    )}\n`
  }
}

type Flags = Record<string, boolean>

/** Each feature's `passes` in the features file of `rev`. */
function flagsAt(r: AttackResult, rev: string): Flags {
  const list = JSON.parse(gitIn(r.ws, ['show', `${rev}:features.json`])) as { id: string; passes: boolean }[]
  return Object.fromEntries(list.map((f) => [f.id, f.passes]))
}

/** Every commit loopgate made in this run, oldest first. */
function loopgateCommits(r: AttackResult): string[] {
  return gitIn(r.ws, ['rev-list', '--reverse', `${r.report.run?.startCommit}..HEAD`])
    .trim()
    .split('\n')
    .filter(Boolean)
}

const filesOf = (r: AttackResult, commit: string): string[] => gitIn(r.ws, ['show', '--name-only', '--format=', commit]).trim().split('\n')

describe('forged feature flips', () => {
  test('a flip naming a test id that does not exist is rejected and absent from every commit loopgate made', async () => {
    const prompts = sharedTempDir()
    const r = await runAttack({
      isolation: 'auto',
      files: tapProject([
        { id: 'add', test: 'adds two' },
        { id: 'ghost', test: 'does not exist' }
      ]),
      inputs: { ...TAP_GATE, 'max-iterations': '2' },
      script: `cp "$LOOPGATE_PROMPT_FILE" ${prompts}/prompt-$LOOPGATE_ITERATION.txt\n${FIX}${FLIP_ALL}`
    })
    const commits = loopgateCommits(r)
    expect(commits.length).toBeGreaterThan(0)
    for (const commit of commits) expect(flagsAt(r, commit).ghost).toBe(false)
    expect(gitIn(r.ws, ['log', '-p', `${r.report.run?.startCommit}..HEAD`])).not.toMatch(/^\+.*"test": "does not exist",\n\+\s*"passes": true/m)
    const why = 'ghost (its test "does not exist" is not among the tests the gate\'s report lists as passed'
    expect(r.report.run?.iterations[0].rejected.join('\n')).toContain(why)
    expect(readFileSync(path.join(prompts, 'prompt-2.txt'), 'utf8')).toContain(why)
    expect(r.report.stopReason).toBe('max-iterations')
    expect(r.report.run?.verifiedCommit).toBeNull()
    // the flip the gate verified is recorded, alone, on top of the commit it judged
    const judged = r.report.run?.iterations[0].commit as string
    const record = commits[commits.indexOf(judged) + 1]
    expect(flagsAt(r, judged)).toEqual({ add: false, ghost: false })
    expect(flagsAt(r, record)).toEqual({ add: true, ghost: false })
    expect(filesOf(r, record)).toEqual(['features.json'])
    expect(JSON.parse(readFileSync(path.join(r.ws, 'features.json'), 'utf8'))).toEqual([
      { id: 'add', test: 'adds two', passes: true },
      { id: 'ghost', test: 'does not exist', passes: false }
    ])
  })

  test('a flip whose test passes is recorded on top of the verified commit, which the gate judged without it', async () => {
    const r = await runAttack({ isolation: 'auto', files: tapProject([{ id: 'add', test: 'adds two' }]), inputs: TAP_GATE, script: `${FIX}${FLIP_ALL}` })
    const run = r.report.run
    expect(r.report.stopReason).toBe('verified')
    const verified = run?.verifiedCommit as string
    expect(verified).toBe(run?.iterations[0].commit)
    expect(flagsAt(r, verified)).toEqual({ add: false })
    expect(run?.headCommit).toBe(gitIn(r.ws, ['rev-parse', 'HEAD']).trim())
    expect(gitIn(r.ws, ['rev-parse', `${run?.headCommit}^`]).trim()).toBe(verified)
    expect(filesOf(r, run?.headCommit as string)).toEqual(['features.json'])
    expect(flagsAt(r, 'HEAD')).toEqual({ add: true })
    expect(gitIn(r.ws, ['log', '-1', '--format=%B', 'HEAD'])).toContain('Loopgate-Run: ')

    // what gets published is the verified commit with loopgate's record of the flip on top
    const server = tempDir('loopgate-server-')
    sh(server, ['init', '-q', '--bare', '-b', 'main', path.join(server, 'o', 'r.git')])
    const publisher = new GitHubPublisher({
      plan: { kind: 'branch', eventName: 'schedule', workBranch: 'loopgate/features', baseBranch: 'main' },
      client: {} as GitHubClient,
      repo: { owner: 'o', repo: 'r' },
      remote: remoteFromEnv({ GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: 'o/r' }),
      env: {},
      tempDir: tempDir(),
      warn: () => undefined
    })
    const published = await publisher.publish({
      settings: settingsFor(r.ws, { 'agent-command': 'true', 'gate-command': TAP_GATE['gate-command'], 'on-success': 'push', 'loop-id': 'features' }),
      outcome: run!,
      repository: GitRepository.plain(r.ws),
      runDir: r.report.runDir,
      logFile: r.report.logFile,
      progressText: ''
    })
    expect(published.error).toBeUndefined()
    expect(sh(path.join(server, 'o', 'r.git'), ['rev-parse', 'refs/heads/loopgate/features']).trim()).toBe(run?.headCommit)
  })
})

describe('loopgate’s commits of the features file', () => {
  test('an iteration commit never takes the features file (the post step’s neither); the record commit takes only it', async () => {
    const ws = makeRepo({ 'a.txt': 'a\n', 'features.json': '[{"passes": false}]\n' })
    const workspace = new GitWorkspace({ dir: ws, progressFile: '.loopgate/progress.md', featuresFile: 'features.json', rules: await publishRulesAt(ws) })
    writeFileSync(path.join(ws, 'a.txt'), 'b\n')
    writeFileSync(path.join(ws, 'features.json'), '[{"passes": true}]\n')
    const change = await workspace.commitIteration('r1', 1)
    expect(sh(ws, ['show', '--name-only', '--format=', change.commit as string]).trim()).toBe('a.txt')
    expect(sh(ws, ['show', 'HEAD:features.json'])).toBe('[{"passes": false}]\n')

    writeFileSync(path.join(ws, 'a.txt'), 'c\n')
    const record = await workspace.commitFeaturesFile('r1', 1, change.commit as string)
    expect(sh(ws, ['show', '--name-only', '--format=', record as string]).trim()).toBe('features.json')
    expect(sh(ws, ['show', 'HEAD:a.txt'])).toBe('b\n')
    expect(await workspace.commitFeaturesFile('r1', 1, change.commit as string)).toBeNull()
  })
})
