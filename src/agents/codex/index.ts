import { CONTROLLED_FLAGS, FRESH_PROCESS_FLAGS, modelArgs, type AgentSpec, type ProviderSpec } from '../agent-spec.js'
import { parsePriceTable } from '../pricing.js'
import { CodexAgent } from './adapter.js'

/** The codex CLI's Azure OpenAI provider, as its configuration documentation writes it. */
function codexAzureArgs(env: NodeJS.ProcessEnv): string[] {
  const url = env.AZURE_OPENAI_BASE_URL ?? ''
  const toml = (value: string): string => JSON.stringify(value)
  const version = env.AZURE_OPENAI_API_VERSION ? `, query_params = { api-version = ${toml(env.AZURE_OPENAI_API_VERSION)} }` : ''
  const provider =
    `{ name = "Azure", base_url = ${toml(url)}, env_key = "AZURE_OPENAI_API_KEY", ` +
    `env_http_headers = { "api-key" = "AZURE_OPENAI_API_KEY" }, wire_api = "responses"${version} }`
  return ['-c', 'model_provider="azure"', '-c', `model_providers.azure=${provider}`]
}

/** Codex's providers. */
const CODEX_PROVIDERS: readonly ProviderSpec[] = [
  { name: 'openai', env: ['OPENAI_BASE_URL'], credentials: [{ input: 'openai-api-key', env: 'OPENAI_API_KEY' }], meterRoute: 'openai' },
  {
    name: 'azure',
    env: ['AZURE_OPENAI_API_KEY', 'AZURE_OPENAI_BASE_URL', 'AZURE_OPENAI_API_VERSION'],
    credentials: [{ input: 'openai-api-key', env: 'AZURE_OPENAI_API_KEY' }],
    args: codexAzureArgs,
    requiredEnv: {
      name: 'AZURE_OPENAI_BASE_URL',
      accepted: "'azure' with AZURE_OPENAI_BASE_URL set in the environment (the endpoint, e.g. https://<resource>.openai.azure.com/openai/v1)"
    },
    meterRoute: 'azure'
  }
]

/** OpenAI's Codex CLI, run as `codex exec` once per iteration. */
export const codex: AgentSpec = {
  name: 'codex',
  summary: '`codex exec`',
  cli: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  apiKey: { input: 'openai-api-key', env: 'OPENAI_API_KEY' },
  configEnv: ['CODEX_HOME', 'RUST_LOG'],
  modelCredentials: ['OPENAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'CODEX_API_KEY'],
  providers: CODEX_PROVIDERS,
  modelFlag: '--model',
  // `codex exec resume` continues a session; codex's -c is a config override and stays allowed.
  refusedArgs: [...FRESH_PROCESS_FLAGS, 'resume'],
  controlledArgs: CONTROLLED_FLAGS,
  inputHelp: { 'openai-api-key': ['<key>', 'for codex (or OPENAI_API_KEY)'] },
  createAdapter: (settings, binary) => {
    const prices = settings.priceTable ? parsePriceTable(settings.priceTable) : undefined
    if (typeof prices === 'string') throw new Error(`price-table: ${prices}`)
    const provider = CODEX_PROVIDERS.find((p) => p.name === settings.provider)
    return new CodexAgent({ binary, args: [...modelArgs(settings), ...settings.agentArgs], prices, providerArgs: provider?.args })
  }
}
