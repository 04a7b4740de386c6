import { parsePriceTable } from '../agents/pricing.js'
import { agentNames, agentSpec, credentialInputs, providerSpec, refusedArg, type AgentSpec } from '../agents/agent-registry.js'
import { modelFromArgs } from '../agents/json-fields.js'
import { parseChoice, parseList, splitArgs, type InputSource } from './values.js'
import { ConfigError } from '../errors.js'
import type { AgentSettings } from '../settings.js'

/** Refuses `agent-args` that would undo a control, by the agent's registry entry. */
function checkAgentArgs(spec: AgentSpec, raw: string, args: string[]): void {
  const refused = refusedArg(spec, args)
  if (!refused) return
  const why =
    refused.why === 'fresh-process'
      ? `each call must be a fresh process (refused: ${spec.refusedArgs.join(', ')})`
      : 'loopgate sets it from its own inputs (max-turns, call-budget-usd)'
  throw new ConfigError('agent-args', raw, `extra CLI arguments without ${refused.arg}: ${why}`)
}

function readProvider(spec: AgentSpec, inputs: InputSource): string | undefined {
  const providerRaw = inputs.raw('provider').trim()
  const names = (spec.providers ?? []).map((p) => `'${p.name}'`)
  if (providerRaw !== '' && !providerSpec(spec, providerRaw)) {
    const accepted = names.length > 0 ? `for agent '${spec.name}': ${names.join(', ')}` : `nothing for agent '${spec.name}' (it brings its own command)`
    throw new ConfigError('provider', providerRaw, accepted)
  }
  const provider = providerSpec(spec, providerRaw === '' ? undefined : providerRaw)
  if (provider?.requiredEnv && !inputs.env[provider.requiredEnv.name]) throw new ConfigError('provider', providerRaw, provider.requiredEnv.accepted)
  return provider?.name
}

/** The agent's registry entry, the inputs, and its `agent-args` as written and as split. */
interface ModelInput {
  spec: AgentSpec
  inputs: InputSource
  rawArgs: string
  agentArgs: string[]
}

/** `model`, checked against the agent's registry entry and its `agent-args`. */
function readModel({ spec, inputs, rawArgs, agentArgs }: ModelInput): string | undefined {
  const modelRaw = inputs.raw('model').trim()
  if (modelRaw === '') return undefined
  if (!spec.modelFlag) throw new ConfigError('model', modelRaw, `nothing for agent '${spec.name}' (it brings its own command)`)
  if (!/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/.test(modelRaw)) throw new ConfigError('model', modelRaw, 'a model name (letters, digits and . _ : / @ + -)')
  if (modelFromArgs(agentArgs) !== undefined || agentArgs.some((a, i) => /^(-c|--config)$/.test(agentArgs[i - 1] ?? '') && /^model\s*=/.test(a))) {
    throw new ConfigError('agent-args', rawArgs, "extra CLI arguments without a model: the 'model' input names it")
  }
  return modelRaw
}

/** The codex price override, validated before anything is spent. */
function readPriceTable(inputs: InputSource): string | undefined {
  const priceTable = inputs.optional('price-table')
  if (priceTable === undefined) return undefined
  const parsed = parsePriceTable(priceTable)
  if (typeof parsed === 'string') {
    throw new ConfigError(
      'price-table',
      priceTable,
      `a JSON object {"<model>": {"input": n, "cachedInput": n, "output": n}} in USD per million tokens (${parsed})`
    )
  }
  return priceTable
}

/** The agent and its registry entry, first: the other parts of the agent depend on it. */
export function readAgentSpec(inputs: InputSource): AgentSpec {
  return agentSpec(parseChoice('agent', inputs.get('agent'), agentNames()))
}

/** The agent's inputs, checked against its registry entry (required inputs, refused flags, providers, model). */
export function readAgentSettings(spec: AgentSpec, inputs: InputSource): AgentSettings {
  for (const required of spec.requiredInputs ?? []) {
    if (!inputs.optional(required.input)) throw new ConfigError(required.input, '', required.accepted)
  }
  const rawArgs = inputs.raw('agent-args')
  const agentArgs = splitArgs(rawArgs)
  checkAgentArgs(spec, rawArgs, agentArgs)
  const provider = readProvider(spec, inputs)
  const model = readModel({ spec, inputs, rawArgs, agentArgs })
  const agentCredentials: Record<string, string> = {}
  for (const input of credentialInputs(spec)) {
    const value = inputs.optional(input)
    if (value !== undefined) agentCredentials[input] = value
  }
  return {
    agent: spec.name,
    agentCommand: inputs.optional('agent-command'),
    agentArgs,
    agentVersion: inputs.optional('agent-version'),
    agentEnv: parseList(inputs.raw('agent-env')),
    agentApiKey: spec.apiKey ? inputs.optional(spec.apiKey.input) : undefined,
    provider,
    model,
    agentCredentials,
    priceTable: readPriceTable(inputs)
  }
}
