import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { stageCredentialFiles } from '../src/agents/credential-files.js'
import { agentUser, type AgentUser } from './helpers/agent-user.js'
import { tempDir } from './helpers/repo.js'

// The runner's OIDC request pair (fake values, shaped as the runner sets them).
const REQUEST_URL =
  'https://run-actions-3-azure-eastus.actions.githubusercontent.com/95//idtoken/0c4b2a4e-7a59-4a57-9d2b-3a0d8c5f1e11/8f0e2c1d-5b6a-4f3e-9c8d-7a6b5c4d3e2f?api-version=2.0'
const REQUEST_TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.fake-runner-request-token.signature'
const RUNNER_ENV = { ACTIONS_ID_TOKEN_REQUEST_URL: REQUEST_URL, ACTIONS_ID_TOKEN_REQUEST_TOKEN: REQUEST_TOKEN }

/** The credentials file google-github-actions/auth writes for workload identity federation. */
function workloadIdentityFile(): string {
  return JSON.stringify({
    type: 'external_account',
    audience: '//iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/github/providers/my-repo',
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: 'https://sts.googleapis.com/v1/token',
    service_account_impersonation_url:
      'https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/vertex-caller@my-project.iam.gserviceaccount.com:generateAccessToken',
    credential_source: {
      url: `${REQUEST_URL}&audience=https%3A%2F%2Fiam.googleapis.com%2Fprojects%2F123456789%2Flocations%2Fglobal%2FworkloadIdentityPools%2Fgithub%2Fproviders%2Fmy-repo`,
      headers: { Authorization: `Bearer ${REQUEST_TOKEN}` },
      format: { type: 'json', subject_token_field_name: 'value' }
    }
  })
}

let user: AgentUser
beforeAll(() => {
  user = agentUser()
})

function stage(file: string, runnerEnv: NodeJS.ProcessEnv, extra: Record<string, string> = {}, provider = 'vertex', name = 'GOOGLE_APPLICATION_CREDENTIALS') {
  const workspace = path.dirname(file)
  return stageCredentialFiles({ PATH: '/usr/bin', [name]: file, ...extra }, { agent: 'claude', provider, user, workspace, runnerEnv })
}

/** The copies staged into the agent's home so far. */
const copies = (): string[] => readdirSync(user.home).filter((n) => n.startsWith('.loopgate-credentials-'))

describe('no credential that can mint others reaches the agent', () => {
  it('the workload identity file google-github-actions/auth writes is refused before any call, naming the fix', () => {
    const file = path.join(tempDir('loopgate-ws-'), 'gha-creds-5f2a.json')
    writeFileSync(file, workloadIdentityFile(), { mode: 0o600 })
    const before = copies()
    expect(() => stage(file, RUNNER_ENV)).toThrow(/GOOGLE_APPLICATION_CREDENTIALS.*OIDC request token.*credentials_json/)
    expect(copies()).toEqual(before)
  })

  it('the same file is refused by its shape when the runner’s request variables are not at hand (another step read them)', () => {
    const file = path.join(tempDir('loopgate-ws-'), 'gha-creds-9c1d.json')
    writeFileSync(file, workloadIdentityFile(), { mode: 0o600 })
    expect(() => stage(file, {})).toThrow(
      /credential_source\.url fetches the subject token from the runner's OIDC token endpoint with the bearer request token/
    )
    // Also when the SDK is to run a command for its token.
    const exec = path.join(tempDir('loopgate-ws-'), 'exec.json')
    writeFileSync(exec, JSON.stringify({ type: 'external_account', credential_source: { executable: { command: '/usr/bin/fetch-token' } } }))
    expect(() => stage(exec, {})).toThrow(/runs a command/)
  })

  it('an AWS config that fetches its own credentials, or an agent variable carrying the request token, is refused', () => {
    const config = path.join(tempDir('loopgate-ws-'), 'aws-config')
    writeFileSync(config, '[default]\nregion = us-east-1\nweb_identity_token_file = /tmp/oidc-token\nrole_arn = arn:aws:iam::1:role/x\n')
    expect(() => stage(config, {}, {}, 'bedrock', 'AWS_CONFIG_FILE')).toThrow(/AWS_CONFIG_FILE.*web_identity_token_file/)
    const key = path.join(tempDir('loopgate-ws-'), 'key.json')
    writeFileSync(key, JSON.stringify({ type: 'service_account', project_id: 'p', private_key: 'k', client_email: 'a@p.iam.gserviceaccount.com' }))
    expect(() => stage(key, RUNNER_ENV, { ANTHROPIC_VERTEX_BASE_URL: `${REQUEST_URL}` })).toThrow(/ANTHROPIC_VERTEX_BASE_URL/)
  })

  it('a service-account key (what the fix names) still reaches the agent as its own copy', () => {
    const key = path.join(tempDir('loopgate-ws-'), 'sa-key.json')
    writeFileSync(key, JSON.stringify({ type: 'service_account', project_id: 'p', private_key: 'k', client_email: 'a@p.iam.gserviceaccount.com' }))
    const staged = stage(key, RUNNER_ENV)
    const copy = staged.env.GOOGLE_APPLICATION_CREDENTIALS as string
    expect(copy.startsWith(`${user.home}/`)).toBe(true)
    expect(existsSync(copy)).toBe(true)
  })
})
