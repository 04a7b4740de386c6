import { gateEnv } from '../isolation/env.js'

/**
 * The package manager's environment for the bump: the gate's scrubbed allow-list plus the
 * registry configuration the runner has: npm's (`npm_config_*`, `NPM_CONFIG_USERCONFIG`, and the
 * `NODE_AUTH_TOKEN` that actions/setup-node's user config refers to) and pip's (`PIP_*`:
 * `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_CONFIG_FILE`, …). The agent never gets it.
 */
export function packageManagerEnv(source: NodeJS.ProcessEnv, extra: string[] = []): NodeJS.ProcessEnv {
  const env = gateEnv(source, extra)
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && (/^npm_config_/i.test(name) || name === 'NODE_AUTH_TOKEN' || /^PIP_/.test(name))) env[name] = value
  }
  return env
}
