import { agentEnv, gateEnv, refusedNames } from '../src/isolation/env.js'

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
  expect(refusedNames(['MY_SETTING', 'NPM_TOKEN', 'INPUT_X', 'ACTIONS_CACHE_URL', 'AWS_SECRET_ACCESS_KEY'])).toEqual(['NPM_TOKEN', 'INPUT_X', 'ACTIONS_CACHE_URL', 'AWS_SECRET_ACCESS_KEY'])
})
