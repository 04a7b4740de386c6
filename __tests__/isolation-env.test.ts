import { agentEnv, gateEnv, refusedNames } from '../src/agents/agent-env.js'

const runner = {
  PATH: '/usr/bin',
  HOME: '/home/runner',
  GITHUB_TOKEN: 'secret-1',
  'INPUT_GITHUB-TOKEN': 'secret-2',
  INPUT_PROMPT: 'x',
  ACTIONS_RUNTIME_TOKEN: 'secret-3',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://x',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'secret-4',
  RUNNER_TEMP: '/tmp/r',
  ANTHROPIC_BASE_URL: 'http://127.0.0.1:1',
  OPENAI_BASE_URL: 'http://127.0.0.1:2',
  CODEX_HOME: '/c',
  NODE_OPTIONS: '--max-old-space-size=4096',
  NPM_TOKEN: 'secret-5',
  MY_SETTING: 'on'
}

test('the agent gets the allow-list, its CLI’s documented variables and agent-env names, never tokens', () => {
  const env = agentEnv(runner, {
    agent: 'claude',
    extra: ['MY_SETTING', 'GITHUB_TOKEN', 'INPUT_GITHUB-TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'NPM_TOKEN'],
    apiKey: { name: 'ANTHROPIC_API_KEY', value: 'sk-test' }
  })
  expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/runner', ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', MY_SETTING: 'on', ANTHROPIC_API_KEY: 'sk-test' })
  expect(agentEnv(runner, { agent: 'codex' })).toEqual({ PATH: '/usr/bin', HOME: '/home/runner', OPENAI_BASE_URL: 'http://127.0.0.1:2', CODEX_HOME: '/c' })
})

test('the gate gets no API key and no token', () => {
  const env = gateEnv(runner, ['NODE_OPTIONS'])
  expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/runner', NODE_OPTIONS: '--max-old-space-size=4096', CI: 'true' })
})

test('refused agent-env names are reported', () => {
  expect(refusedNames(['MY_SETTING', 'NPM_TOKEN', 'INPUT_X', 'ACTIONS_CACHE_URL', 'AWS_SECRET_ACCESS_KEY'])).toEqual([
    'NPM_TOKEN',
    'INPUT_X',
    'ACTIONS_CACHE_URL',
    'AWS_SECRET_ACCESS_KEY'
  ])
})

describe('providers: exactly the chosen provider’s variables reach the agent, none reaches the gate', () => {
  const aws = {
    AWS_ACCESS_KEY_ID: 'AKIA-test',
    AWS_SECRET_ACCESS_KEY: 'aws-secret',
    AWS_SESSION_TOKEN: 'aws-session',
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    ANTHROPIC_BEDROCK_BASE_URL: 'http://127.0.0.1:3'
  }
  const google = {
    GOOGLE_APPLICATION_CREDENTIALS: '/runner/gha-creds.json',
    CLOUD_ML_REGION: 'us-east5',
    ANTHROPIC_VERTEX_PROJECT_ID: 'proj',
    GOOGLE_CLOUD_PROJECT: 'proj'
  }
  const azure = { AZURE_OPENAI_API_KEY: 'azure-secret', AZURE_OPENAI_BASE_URL: 'https://r.openai.azure.com/openai/v1' }
  const everything = { ...runner, ...aws, ...google, ...azure, CLAUDE_CODE_USE_BEDROCK: '1', CLAUDE_CODE_USE_VERTEX: '1' }
  const base = { PATH: '/usr/bin', HOME: '/home/runner' }

  test('claude on anthropic: the base URL and its credentials, nothing of AWS or Google', () => {
    const env = agentEnv(everything, { agent: 'claude', credentials: [{ name: 'CLAUDE_CODE_OAUTH_TOKEN', value: 'oat' }] })
    expect(env).toEqual({ ...base, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1', CLAUDE_CODE_OAUTH_TOKEN: 'oat' })
    expect(agentEnv(everything, { agent: 'claude', provider: 'anthropic' })).toEqual({ ...base, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' })
  })

  test('claude on bedrock: the AWS credentials configure-aws-credentials exports, past the deny rule', () => {
    expect(agentEnv(everything, { agent: 'claude', provider: 'bedrock' })).toEqual({ ...base, ...aws, CLAUDE_CODE_USE_BEDROCK: '1' })
  })

  test('claude on vertex: the Google credentials file and project variables', () => {
    expect(agentEnv(everything, { agent: 'claude', provider: 'vertex' })).toEqual({ ...base, ...google, CLAUDE_CODE_USE_VERTEX: '1' })
  })

  test('codex on openai and on azure', () => {
    expect(agentEnv(everything, { agent: 'codex' })).toEqual({ ...base, OPENAI_BASE_URL: 'http://127.0.0.1:2', CODEX_HOME: '/c' })
    expect(agentEnv(everything, { agent: 'codex', provider: 'azure' })).toEqual({ ...base, ...azure, CODEX_HOME: '/c' })
  })

  test('agent-env cannot name a provider’s secret, and the gate gets none of them', () => {
    expect(agentEnv(everything, { agent: 'claude', extra: ['AWS_SECRET_ACCESS_KEY', 'AZURE_OPENAI_API_KEY'] })).not.toHaveProperty('AWS_SECRET_ACCESS_KEY')
    const gate = gateEnv(everything, ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AZURE_OPENAI_API_KEY'])
    expect(gate).toEqual({ ...base, CI: 'true' })
  })
})
