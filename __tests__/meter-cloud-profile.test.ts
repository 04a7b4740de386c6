import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ClaudeAgent } from '../src/agents/claude/adapter.js'
import { profileKeys } from '../src/meter/aws-profile.js'
import { meteredAgent } from '../src/meter/metered-wiring.js'
import { agentUser, assertUserCanRun, chownTree, type AgentUser } from './helpers/agent-user.js'
import { CLAUDE_BIN, runEngine } from './helpers/agent-engine.js'
import { copyCliEnvCommand } from './helpers/forged-result.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startCloudServer, type CloudKeys, type CloudServer } from './servers/cloud-model-server.js'

// Bedrock with the runner's credentials only in an AWS profile: loopgate reads the shared files
// as the AWS SDKs do, signs each request itself, and the agent gets neither the keys nor the files.

const KEYS: CloudKeys = {
  accessKeyId: 'AKIAPROFILEEXAMPLE01',
  secretAccessKey: 'profile/secret+EXAMPLEKEY/abc',
  sessionToken: 'FwoGZXIvYXdzEXAMPLE-profile-session',
  region: 'eu-west-3',
  googleToken: 'unused'
}

let server: CloudServer
let user: AgentUser
const meters: { stop(): Promise<void> }[] = []
beforeAll(async () => {
  server = await startCloudServer(KEYS)
  user = agentUser()
  assertUserCanRun(user, CLAUDE_BIN)
})
afterAll(async () => {
  for (const m of meters) await m.stop()
  await server.close()
})

/** The runner's shared files in a folder of their own, named by the variables (or found in HOME/.aws). */
function sharedFiles(files: { credentials?: string; config?: string }): { dir: string; credentials: string; config: string } {
  const dir = tempDir('loopgate-aws-')
  const credentials = path.join(dir, 'credentials')
  const config = path.join(dir, 'config')
  if (files.credentials !== undefined) writeFileSync(credentials, files.credentials, { mode: 0o600 })
  if (files.config !== undefined) writeFileSync(config, files.config, { mode: 0o600 })
  return { dir, credentials, config }
}

const ciProfile = (): NodeJS.ProcessEnv => {
  const f = sharedFiles({
    credentials: `[default]\naws_access_key_id = AKIADEFAULTNOTUSED01\naws_secret_access_key = nope\n\n[ci]\naws_access_key_id = ${KEYS.accessKeyId}\naws_secret_access_key = ${KEYS.secretAccessKey}\naws_session_token = ${KEYS.sessionToken}\n`,
    config: `[default]\nregion = us-east-1\n\n# the config file names its profiles "profile x"\n[profile ci]\nregion = ${KEYS.region}\n`
  })
  return { AWS_PROFILE: 'ci', AWS_SHARED_CREDENTIALS_FILE: f.credentials, AWS_CONFIG_FILE: f.config, ANTHROPIC_BEDROCK_BASE_URL: server.url }
}

test('Bedrock from an AWS profile: metered at the wire, signed with the profile’s keys in its region, no AWS credential or file path in the agent', async () => {
  const runner = ciProfile()
  const usage = { input_tokens: 20_000, output_tokens: 400 }
  server.setScript([
    { kind: 'tool', name: 'Bash', input: { command: copyCliEnvCommand('env.seen') }, usage },
    { kind: 'text', text: 'Done.', usage }
  ])
  const wired = meteredAgent({ agent: 'claude', agentArgs: [], provider: 'bedrock' }, runner, new ClaudeAgent({ binary: CLAUDE_BIN }))
  meters.push(wired.meter!)
  expect(wired.meteredAtWire).toBe(`Amazon Bedrock via ${new URL(server.url).host}`)
  const repo = makeRepo(buggyProject())
  chownTree(repo, user)
  const tmp = path.join(user.home, 'tmp')
  mkdirSync(tmp, { recursive: true })
  chownTree(tmp, user)
  // what the old wiring handed the CLI: the profile and the files' paths
  const env = { PATH: process.env.PATH, TMPDIR: tmp, CLAUDE_CODE_MAX_RETRIES: '0', ...runner }
  const r = await runEngine({ adapter: wired.adapter, repo, env, user, callBudgetUsd: 5 })
  expect(r.outcome.iterations[0].agent.status).toBe('claimed-done')
  const models = server.requests.filter((q) => /\/invoke-with-response-stream$/.test(q.url))
  expect(models.length).toBeGreaterThanOrEqual(2)
  for (const q of server.requests) expect(q.refused).toBeUndefined()
  for (const q of models)
    expect(String(q.headers.authorization)).toMatch(new RegExp(`^AWS4-HMAC-SHA256 Credential=${KEYS.accessKeyId}/\\d{8}/eu-west-3/bedrock/`))
  expect(r.charges[0].source).toBe('metered')
  expect(r.charges[0].usd).toBeCloseTo(
    server.sent.reduce((s, u) => s + (u.input_tokens * 4 + u.output_tokens * 20) / 1e6, 0),
    9
  )
  const seen = readFileSync(path.join(repo, 'env.seen'), 'utf8')
  expect(seen).not.toMatch(/^AWS_/m)
  expect(seen).not.toContain(KEYS.secretAccessKey)
  expect(seen).not.toContain(KEYS.sessionToken)
  expect(seen).not.toContain(path.dirname(String(runner.AWS_CONFIG_FILE)))
})

test('the shared files are read as the SDKs read them: default paths under HOME, [profile x] in config, the credentials file over the config', () => {
  const home = tempDir('loopgate-home-')
  mkdirSync(path.join(home, '.aws'))
  writeFileSync(path.join(home, '.aws', 'credentials'), '[default]\naws_access_key_id = AKIAHOME\naws_secret_access_key = s1\n')
  writeFileSync(
    path.join(home, '.aws', 'config'),
    '[default]\nregion = ap-south-1\n[dev]\nregion = wrong\n[profile dev]\naws_access_key_id = AKIADEV\naws_secret_access_key = d1\n'
  )
  expect(profileKeys({ HOME: home })).toEqual({
    profile: 'default',
    accessKeyId: 'AKIAHOME',
    secretAccessKey: 's1',
    sessionToken: undefined,
    region: 'ap-south-1'
  })
  expect(profileKeys({ HOME: home, AWS_PROFILE: 'dev' })).toEqual({
    profile: 'dev',
    accessKeyId: 'AKIADEV',
    secretAccessKey: 'd1',
    sessionToken: undefined,
    region: undefined
  })
  const f = sharedFiles({
    credentials: '[dev]\naws_secret_access_key = from-credentials\n',
    config: '[profile dev]\naws_access_key_id = AKIACFG\naws_secret_access_key = from-config\nregion = sa-east-1\n'
  })
  expect(profileKeys({ HOME: home, AWS_PROFILE: 'dev', AWS_SHARED_CREDENTIALS_FILE: f.credentials, AWS_CONFIG_FILE: f.config })).toMatchObject({
    accessKeyId: 'AKIACFG',
    secretAccessKey: 'from-credentials',
    region: 'sa-east-1'
  })
  expect(profileKeys({ HOME: tempDir('loopgate-home-') })).toBeUndefined()
})

test.each([
  ['credential_process', '[profile ci]\ncredential_process = /usr/local/bin/get-creds\n', /credential_process/],
  [
    'SSO',
    '[profile ci]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Dev\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n',
    /sso_session, sso_account_id, sso_role_name/
  ],
  [
    'an assumed role',
    '[profile base]\naws_access_key_id = AKIABASE\naws_secret_access_key = b\n[profile ci]\nrole_arn = arn:aws:iam::1:role/bedrock\nsource_profile = base\n',
    /role_arn, source_profile/
  ],
  ['web identity', '[profile ci]\nrole_arn = arn:aws:iam::1:role/x\nweb_identity_token_file = /tmp/token\n', /role_arn, web_identity_token_file/],
  ['no keys at all', '[profile ci]\nregion = us-east-1\n', /no aws_access_key_id and aws_secret_access_key/]
])('a profile resolved by %s is refused before any spend, naming the profile and aws-actions/configure-aws-credentials', (_, config, what) => {
  const f = sharedFiles({ config })
  server.setScript([])
  const env = { AWS_PROFILE: 'ci', AWS_CONFIG_FILE: f.config, AWS_SHARED_CREDENTIALS_FILE: f.credentials, ANTHROPIC_BEDROCK_BASE_URL: server.url }
  const wire = () => meteredAgent({ agent: 'claude', agentArgs: [], provider: 'bedrock' }, env, new ClaudeAgent({ binary: CLAUDE_BIN }))
  expect(wire).toThrow(/^Input 'AWS_PROFILE' has the value "ci"; accepted: .*profile "ci" in .*cannot: /)
  expect(wire).toThrow(what)
  expect(wire).toThrow(/aws-actions\/configure-aws-credentials/)
  expect(server.requests).toHaveLength(0)
})
