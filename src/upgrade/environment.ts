import { isRegistryEnv } from '../ecosystems/registry.js'
import { gateEnv } from '../agents/agent-env.js'

/**
 * The package manager's environment for the bump: the gate's scrubbed allow-list plus the
 * registry configuration the runner has, as each ecosystem names it (`registryEnv`). The agent
 * never gets it.
 */
export function packageManagerEnv(source: NodeJS.ProcessEnv, extra: string[] = []): NodeJS.ProcessEnv {
  const env = gateEnv(source, extra)
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && isRegistryEnv(name)) env[name] = value
  }
  return env
}
