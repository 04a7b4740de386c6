import { gateEnv } from '../isolation/env.js'

/**
 * The package manager's environment for the bump: the gate's scrubbed allow-list plus the npm
 * registry configuration the runner has (`npm_config_*`, `NPM_CONFIG_USERCONFIG`, and the
 * `NODE_AUTH_TOKEN` that actions/setup-node's user config refers to). The agent never gets it.
 */
export function packageManagerEnv(source: NodeJS.ProcessEnv, extra: string[] = []): NodeJS.ProcessEnv {
  const env = gateEnv(source, extra)
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && (/^npm_config_/i.test(name) || name === 'NODE_AUTH_TOKEN')) env[name] = value
  }
  return env
}
