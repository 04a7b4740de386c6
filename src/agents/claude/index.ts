import { CONTROLLED_FLAGS, FRESH_PROCESS_FLAGS, modelArgs, type AgentSpec, type ProviderSpec } from '../agent-spec.js'
import { ClaudeAgent } from './adapter.js'

/** Claude Code's providers, with the variables its documentation lists for each. */
const CLAUDE_PROVIDERS: readonly ProviderSpec[] = [
  {
    name: 'anthropic',
    env: ['ANTHROPIC_BASE_URL'],
    credentials: [
      { input: 'anthropic-api-key', env: 'ANTHROPIC_API_KEY' },
      { input: 'claude-code-oauth-token', env: 'CLAUDE_CODE_OAUTH_TOKEN' }
    ],
    meterRoute: 'anthropic'
  },
  {
    name: 'bedrock',
    env: [
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AWS_REGION',
      'AWS_DEFAULT_REGION',
      'AWS_PROFILE',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
      'AWS_BEARER_TOKEN_BEDROCK',
      'ANTHROPIC_BEDROCK_BASE_URL',
      'ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION',
      'CLAUDE_CODE_SKIP_BEDROCK_AUTH'
    ],
    set: { CLAUDE_CODE_USE_BEDROCK: '1' },
    files: ['AWS_CONFIG_FILE', 'AWS_SHARED_CREDENTIALS_FILE'],
    credentials: [],
    meterRoute: 'bedrock'
  },
  {
    name: 'vertex',
    env: [
      'GOOGLE_APPLICATION_CREDENTIALS',
      'CLOUD_ML_REGION',
      'ANTHROPIC_VERTEX_PROJECT_ID',
      'ANTHROPIC_VERTEX_BASE_URL',
      'GOOGLE_CLOUD_PROJECT',
      'GCLOUD_PROJECT',
      'CLOUDSDK_CORE_PROJECT',
      'CLAUDE_CODE_SKIP_VERTEX_AUTH'
    ],
    set: { CLAUDE_CODE_USE_VERTEX: '1' },
    files: ['GOOGLE_APPLICATION_CREDENTIALS'],
    credentials: [],
    meterRoute: 'vertex'
  }
]

/** Claude Code, run as `claude -p` once per iteration. */
export const claude: AgentSpec = {
  name: 'claude',
  summary: 'Claude Code `claude -p`',
  cli: { package: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' },
  apiKey: { input: 'anthropic-api-key', env: 'ANTHROPIC_API_KEY' },
  configEnv: [
    'ANTHROPIC_MODEL',
    'ANTHROPIC_SMALL_FAST_MODEL',
    'CLAUDE_CONFIG_DIR',
    'DISABLE_AUTOUPDATER',
    'DISABLE_TELEMETRY',
    'DISABLE_ERROR_REPORTING',
    'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'
  ],
  modelCredentials: ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'],
  providers: CLAUDE_PROVIDERS,
  modelFlag: '--model',
  // Claude Code's short forms of --resume and --continue.
  refusedArgs: [...FRESH_PROCESS_FLAGS, '-r', '-c'],
  controlledArgs: CONTROLLED_FLAGS,
  inputHelp: {
    'anthropic-api-key': ['<key>', 'for claude (or ANTHROPIC_API_KEY)'],
    'claude-code-oauth-token': ['<token>', 'for claude, a subscription token (or CLAUDE_CODE_OAUTH_TOKEN)']
  },
  createAdapter: (settings, binary) => new ClaudeAgent({ binary, args: [...modelArgs(settings), ...settings.agentArgs] })
}
