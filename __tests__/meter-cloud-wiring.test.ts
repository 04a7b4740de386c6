import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { readSettings } from '../src/inputs/read-settings.js'
import { DryRunPublisher } from '../src/publish/dry-run.js'
import { executeRun } from '../src/run/execute-run.js'
import { CLI_BIN_DIR } from './helpers/agent-engine.js'
import { buggyProject, makeRepo, tempDir } from './helpers/repo.js'
import { startCloudServer, type CloudKeys, type CloudServer } from './servers/cloud-model-server.js'
import { serviceAccountKey, startTokenServer, type TokenServer } from './servers/google-token-server.js'

// executeRun as the action runs it (as root, no agent user), on Vertex with what
// google-github-actions/auth leaves behind for workload identity federation with
// `token_format: access_token`: the access token it minted, the runner's OIDC request pair, and
// (unless `create_credentials_file: false`) a credentials file in the workspace holding that pair.

const REQUEST_URL = 'https://run-actions-1-azure-eastus.actions.githubusercontent.com/7//idtoken/abc/def?api-version=2.0'
const REQUEST_TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.runner-request-token.sig'
const KEYS: CloudKeys = { accessKeyId: 'unused', secretAccessKey: 'unused', sessionToken: 'unused', region: 'us-east-1', googleToken: 'ya29.minted-by-auth' }

let server: CloudServer
let tokens: TokenServer
beforeAll(async () => {
  server = await startCloudServer(KEYS)
  tokens = await startTokenServer()
})
afterAll(async () => {
  await server.close()
  await tokens.close()
})

function workloadIdentityFile(repo: string): string {
  const creds = path.join(repo, 'gha-creds-0123456789abcdef.json')
  writeFileSync(
    creds,
    JSON.stringify({
      type: 'external_account',
      audience: '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/github/providers/repo',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: 'https://sts.googleapis.com/v1/token',
      credential_source: {
        url: REQUEST_URL,
        headers: { Authorization: `Bearer ${REQUEST_TOKEN}` },
        format: { type: 'json', subject_token_field_name: 'value' }
      }
    })
  )
  return creds
}

function execute(repo: string, extra: NodeJS.ProcessEnv, provider = 'vertex') {
  const env: NodeJS.ProcessEnv = {
    PATH: `${CLI_BIN_DIR}:${process.env.PATH}`,
    HOME: tempDir('loopgate-root-home-'),
    GITHUB_WORKSPACE: repo,
    ACTIONS_ID_TOKEN_REQUEST_URL: REQUEST_URL,
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN,
    GOOGLE_OAUTH_ACCESS_TOKEN: KEYS.googleToken,
    ANTHROPIC_VERTEX_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_VERTEX_PROJECT_ID: 'my-project',
    CLOUD_ML_REGION: 'us-east5',
    CLAUDE_CODE_MAX_RETRIES: '0',
    ...extra
  }
  const inputs: Record<string, string> = {
    agent: 'claude',
    provider,
    prompt: 'Fix add().',
    'gate-command': 'node test/run.mjs',
    'max-iterations': '1',
    'call-budget-usd': '1',
    'spend-ceiling-usd': '5'
  }
  const lines: string[] = []
  const report = executeRun(
    readSettings((name) => inputs[name] ?? '', env),
    {
      env,
      runId: `t${Date.now()}`,
      tempDir: tempDir('loopgate-wiring-'),
      publisher: new DryRunPublisher(),
      signal: new AbortController().signal,
      report: (l) => lines.push(l),
      isolation: 'weak'
    }
  )
  return { report, lines }
}

test('Vertex with the access token google-github-actions/auth minted: metered at the wire, the agent gets no Google credential', async () => {
  const repo = makeRepo(buggyProject())
  const file = path.join(repo, 'src/math.mjs')
  const usage = { input_tokens: 30_000, output_tokens: 500 }
  // Claude Code reads a file before it edits it
  server.setScript([
    { kind: 'tool', name: 'Bash', input: { command: 'env > agent-env.txt' }, usage },
    { kind: 'tool', name: 'Read', input: { file_path: file }, usage },
    { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' }, usage },
    { kind: 'text', text: 'Fixed.', usage }
  ])
  const { report: running, lines } = execute(repo, {})
  const report = await running
  expect(report.stopReason).toBe('verified')
  expect(lines.join('\n')).toMatch(/Spend is metered at the wire \(Vertex AI via 127\.0\.0\.1:\d+\)/)
  const charges = readFileSync(report.ledgerFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; source: string; usd: number })
    .filter((e) => e.type === 'charge')
  expect(charges[0].source).toBe('metered')
  expect(charges[0].usd).toBeCloseTo(
    server.sent.reduce((s, u) => s + (u.input_tokens * 4 + u.output_tokens * 20) / 1e6, 0),
    9
  )
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toMatch(/^GOOGLE_/m)
  expect(agentEnv).not.toContain(KEYS.googleToken)
  expect(agentEnv).not.toContain(REQUEST_TOKEN)
  expect(agentEnv).toMatch(/^ANTHROPIC_VERTEX_BASE_URL=http:\/\/127\.0\.0\.1:\d+\/v1$/m)
  for (const q of server.requests) expect(q.headers.authorization).toBe(`Bearer ${KEYS.googleToken}`)
})

test('a workload-identity credentials file is still refused on the metered route: it lies in the workspace the agent reads', async () => {
  const repo = makeRepo(buggyProject())
  server.setScript([])
  const { report } = execute(repo, { GOOGLE_APPLICATION_CREDENTIALS: workloadIdentityFile(repo) })
  await expect(report).rejects.toThrow(/GOOGLE_APPLICATION_CREDENTIALS.*OIDC request token.*GOOGLE_OAUTH_ACCESS_TOKEN/)
  expect(server.requests).toHaveLength(0)
})

/** What google-github-actions/auth with `credentials_json` leaves: a service-account key file, and no access token. */
function keyFileIn(dir: string): string {
  const key = serviceAccountKey(`${tokens.url}/token`)
  tokens.publicKey = key.publicKey
  tokens.issue = { tokens: Array.from({ length: 5 }, () => KEYS.googleToken), expiresIn: 3600 }
  const file = path.join(dir, 'gha-creds-5d1e9b2c.json')
  writeFileSync(file, key.json, { mode: 0o600 })
  return file
}

test('Vertex with only a service-account key file: loopgate mints the token, the run is metered at the wire, the agent gets no key', async () => {
  const repo = makeRepo(buggyProject())
  const file = path.join(repo, 'src/math.mjs')
  const usage = { input_tokens: 30_000, output_tokens: 500 }
  server.setScript([
    { kind: 'tool', name: 'Bash', input: { command: 'env > agent-env.txt' }, usage },
    { kind: 'tool', name: 'Read', input: { file_path: file }, usage },
    { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' }, usage },
    { kind: 'text', text: 'Fixed.', usage }
  ])
  tokens.exchanges.length = 0
  const keyFile = keyFileIn(tempDir('loopgate-runner-temp-'))
  const { report: running, lines } = execute(repo, { GOOGLE_OAUTH_ACCESS_TOKEN: '', GOOGLE_APPLICATION_CREDENTIALS: keyFile })
  const report = await running
  expect(report.stopReason).toBe('verified')
  expect(lines.join('\n')).toMatch(/Spend is metered at the wire \(Vertex AI via 127\.0\.0\.1:\d+\)/)
  expect(tokens.exchanges.map((e) => e.refused)).toEqual([undefined])
  for (const q of server.requests) expect(q.headers.authorization).toBe(`Bearer ${KEYS.googleToken}`)
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toMatch(/^GOOGLE_/m)
  expect(agentEnv).not.toContain(path.basename(keyFile))
  expect(agentEnv).not.toContain(KEYS.googleToken)
})

test('a key file the agent would be handed with the workspace is refused before any spend, naming where to put it', async () => {
  const repo = makeRepo(buggyProject())
  server.setScript([])
  tokens.exchanges.length = 0
  const { report } = execute(repo, { GOOGLE_OAUTH_ACCESS_TOKEN: '', GOOGLE_APPLICATION_CREDENTIALS: keyFileIn(repo) })
  await expect(report).rejects.toThrow(/GOOGLE_APPLICATION_CREDENTIALS.*outside the workspace.*RUNNER_TEMP/)
  expect(server.requests).toHaveLength(0)
})

test('Bedrock with only an AWS profile, through the whole run: signed by loopgate, metered, the agent gets no AWS variable or file path', async () => {
  const repo = makeRepo(buggyProject())
  const file = path.join(repo, 'src/math.mjs')
  const usage = { input_tokens: 30_000, output_tokens: 500 }
  server.setScript([
    { kind: 'tool', name: 'Bash', input: { command: 'env > agent-env.txt' }, usage },
    { kind: 'tool', name: 'Read', input: { file_path: file }, usage },
    { kind: 'tool', name: 'Edit', input: { file_path: file, old_string: 'a - b', new_string: 'a + b' }, usage },
    { kind: 'text', text: 'Fixed.', usage }
  ])
  const aws = tempDir('loopgate-runner-aws-')
  writeFileSync(
    path.join(aws, 'credentials'),
    `[ci]\naws_access_key_id = ${KEYS.accessKeyId}\naws_secret_access_key = ${KEYS.secretAccessKey}\naws_session_token = ${KEYS.sessionToken}\n`
  )
  writeFileSync(path.join(aws, 'config'), `[profile ci]\nregion = ${KEYS.region}\n`)
  const { report: running, lines } = execute(
    repo,
    {
      GOOGLE_OAUTH_ACCESS_TOKEN: '',
      AWS_PROFILE: 'ci',
      AWS_SHARED_CREDENTIALS_FILE: path.join(aws, 'credentials'),
      AWS_CONFIG_FILE: path.join(aws, 'config'),
      ANTHROPIC_BEDROCK_BASE_URL: server.url
    },
    'bedrock'
  )
  const report = await running
  expect(report.stopReason).toBe('verified')
  expect(lines.join('\n')).toMatch(/Spend is metered at the wire \(Amazon Bedrock via 127\.0\.0\.1:\d+\)/)
  expect(server.requests.length).toBeGreaterThanOrEqual(4)
  for (const q of server.requests) expect(q.refused).toBeUndefined()
  const agentEnv = readFileSync(path.join(repo, 'agent-env.txt'), 'utf8')
  expect(agentEnv).not.toMatch(/^AWS_/m)
  expect(agentEnv).not.toContain(aws)
})
