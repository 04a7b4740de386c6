import { lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { GitWorkspace } from '../src/git/workspace.js'
import { publishRulesAt } from './helpers/publish-rules.js'
import { stageCredentialFiles } from '../src/agents/credential-files.js'
import { agentUser, type AgentUser } from './helpers/agent-user.js'
import { hasTool, needs } from './helpers/needs-tools.js'
import { makeRepo, sh, tempDir } from './helpers/repo.js'

// google-github-actions/auth writes the credentials file into the workspace, readable by the
// runner's user only; the agent runs as another user and gets a private copy.

let user: AgentUser
beforeAll(() => {
  if (!hasTool('second-user')) return
  user = agentUser()
})
const asUser = needs('second-user')

const KEY = '{"type": "external_account", "audience": "//iam.googleapis.com/test"}\n'

asUser.test('the agent user gets its own 0600 copy; the runner file is untouched and kept out of commits', () => {
  const workspace = tempDir('loopgate-ws-')
  const runnerFile = path.join(workspace, 'gha-creds-1234.json')
  writeFileSync(runnerFile, KEY, { mode: 0o600 })
  const before = statSync(runnerFile)
  const staged = stageCredentialFiles(
    { PATH: '/usr/bin', GOOGLE_APPLICATION_CREDENTIALS: runnerFile, CLOUD_ML_REGION: 'us-east5' },
    { agent: 'claude', provider: 'vertex', user, workspace }
  )
  const copy = staged.env.GOOGLE_APPLICATION_CREDENTIALS as string
  expect(copy).not.toBe(runnerFile)
  expect(copy.startsWith(`${user.home}/`)).toBe(true)
  expect(readFileSync(copy, 'utf8')).toBe(KEY)
  const st = lstatSync(copy)
  expect(st.isFile()).toBe(true)
  expect(st.mode & 0o777).toBe(0o600)
  expect([st.uid, st.gid]).toEqual([user.uid, user.gid])
  expect(statSync(path.dirname(copy)).uid).toBe(user.uid)
  const after = statSync(runnerFile)
  expect([after.mode, after.uid, after.gid]).toEqual([before.mode, before.uid, before.gid])
  expect(staged.env.CLOUD_ML_REGION).toBe('us-east5')
  expect(staged.inWorkspace).toEqual(['gha-creds-1234.json'])
})

asUser.test('a link in place of the credentials file is not followed: nothing is copied', () => {
  const workspace = tempDir('loopgate-ws-')
  const secret = path.join(tempDir('loopgate-root-only-'), 'shadow')
  writeFileSync(secret, 'root-only\n', { mode: 0o600 })
  const link = path.join(workspace, 'gha-creds-link.json')
  symlinkSync(secret, link)
  const staged = stageCredentialFiles({ GOOGLE_APPLICATION_CREDENTIALS: link }, { agent: 'claude', provider: 'vertex', user, workspace })
  expect(staged.env.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined()
  expect(staged.notes.join('\n')).toContain('GOOGLE_APPLICATION_CREDENTIALS')
})

asUser.test('without a separate agent user, and for other providers, the environment stays as it is', () => {
  const workspace = tempDir('loopgate-ws-')
  const env = { GOOGLE_APPLICATION_CREDENTIALS: '/elsewhere/creds.json' }
  expect(stageCredentialFiles(env, { agent: 'claude', provider: 'vertex', workspace }).env).toEqual(env)
  expect(stageCredentialFiles(env, { agent: 'claude', provider: 'anthropic', user, workspace }).env).toEqual(env)
})

test('a credentials file in the workspace never goes into loopgate’s commits', async () => {
  const ws = makeRepo({ 'a.txt': 'a\n' })
  const staged = stageCredentialFiles(
    { GOOGLE_APPLICATION_CREDENTIALS: path.join(ws, 'gha-creds-9f.json') },
    { agent: 'claude', provider: 'vertex', workspace: ws }
  )
  const workspace = new GitWorkspace({ dir: ws, progressFile: '.loopgate/progress.md', exclude: staged.inWorkspace, rules: await publishRulesAt(ws) })
  await workspace.prepare()
  writeFileSync(path.join(ws, 'gha-creds-9f.json'), KEY)
  writeFileSync(path.join(ws, 'a.txt'), 'b\n')
  const change = await workspace.commitIteration('r1', 1)
  expect(sh(ws, ['show', '--name-only', '--format=', change.commit as string]).trim()).toBe('a.txt')
})
