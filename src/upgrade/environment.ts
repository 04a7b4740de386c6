import { isRegistryEnv } from '../ecosystems/registry.js'
import { gateEnv } from '../agents/agent-env.js'

/**
 * How the runner reaches the network: its proxies and the certificate authorities it trusts (a
 * TLS-inspecting proxy's among them), in the spellings Node, Python and curl read. A bump behind
 * a proxy fails without them.
 */
const NETWORK_ENV = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'NODE_USE_ENV_PROXY',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE'
]

/**
 * The package manager's environment for the bump: the gate's scrubbed allow-list, the runner's
 * proxies and trusted certificates, and the registry configuration the runner has, as each
 * ecosystem names it (`registryEnv`). The agent never gets it.
 */
export function packageManagerEnv(source: NodeJS.ProcessEnv, extra: string[] = []): NodeJS.ProcessEnv {
  const env = gateEnv(source, extra)
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && (isRegistryEnv(name) || NETWORK_ENV.includes(name))) env[name] = value
  }
  return env
}
