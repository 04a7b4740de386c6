import { allowListed, isDenied } from '../isolation/env.js'
import { agentSpec, agentSpecs, providerSpec } from './agent-registry.js'

/**
 * A variable a provider owns (its credentials, its switches, the variables its credential inputs
 * become): it reaches the agent only through `provider`, never through `agent-env`, so never the gate.
 */
function isProviderVariable(name: string): boolean {
  return agentSpecs().some((spec) =>
    (spec.providers ?? []).some((p) => p.env.includes(name) || Object.keys(p.set ?? {}).includes(name) || p.credentials.some((c) => c.env === name))
  )
}

/** The `agent-env` names that are refused (tokens, secrets, runner internals, provider variables), for a note. */
export function refusedNames(names: string[]): string[] {
  return names.filter((n) => isDenied(n) || isProviderVariable(n))
}

interface AgentEnvOptions {
  /** The agent's registry name: its entry lists the configuration variables its CLI documents. */
  agent: string
  /** Extra variable names the user allowed with `agent-env`. */
  extra?: string[]
  /** The agent's own API key, set under its CLI's name. */
  apiKey?: { name: string; value: string }
  /** The agent's provider (its registry entry's default when not given). */
  provider?: string
  /** Credentials from inputs, each under the variable the CLI reads (see credentialsFor). */
  credentials?: { name: string; value: string }[]
  /** Values loopgate sets itself (e.g. LOOPGATE_PROMPT_FILE). */
  set?: Record<string, string>
}

/** Builds the agent's environment from an allow-list; secrets and runner internals never pass. */
export function agentEnv(source: NodeJS.ProcessEnv, opts: AgentEnvOptions): NodeJS.ProcessEnv {
  const env = allowListed(source, [...agentSpec(opts.agent).configEnv, ...(opts.extra ?? []).filter((n) => !isProviderVariable(n))])
  // The provider's own variables are its credentials: named by loopgate, passed past the deny rule.
  const provider = providerSpec(agentSpec(opts.agent), opts.provider)
  for (const name of provider?.env ?? []) {
    const value = source[name]
    if (value !== undefined) env[name] = value
  }
  Object.assign(env, provider?.set ?? {})
  if (opts.apiKey) env[opts.apiKey.name] = opts.apiKey.value
  for (const c of opts.credentials ?? []) env[c.name] = c.value
  Object.assign(env, opts.set ?? {})
  return env
}

/** The gate's environment: the same allow-list, no API key. */
export function gateEnv(source: NodeJS.ProcessEnv, extra: string[] = []): NodeJS.ProcessEnv {
  const env = agentEnv(source, { agent: 'command', extra })
  env.CI = env.CI ?? 'true'
  return env
}
