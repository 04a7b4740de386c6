import { ConfigError } from '../errors.js'
import { declaredIndexUrls, indexDeclaringFile } from '../ecosystems/declared-indexes.js'
import { ECOSYSTEMS, isRegistryEnv } from '../ecosystems/registry.js'
import type { GitRepository } from '../git/repository.js'
import type { TreeEntry } from '../git/repository-trees.js'
import { hostRules } from '../isolation/allowed-hosts.js'
import type { SandboxKind } from '../isolation/egress-log.js'
import { probeSandbox, Sandbox } from '../isolation/sandbox.js'
import { meterRouteFor } from '../meter/upstream-for.js'
import type { Settings } from '../settings.js'

/** The run's sandbox (null where the runner cannot make one and `allowed-hosts: '*'` says to go on), and what the summary says of it. */
interface RunNetwork {
  sandbox: Sandbox | null
  notes: string[]
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * The hosts of the registries the run's environment points the package managers at and passes
 * to the agent and the gate (`agent-env: npm_config_registry`): a loopback one with its port, so
 * it is relayed as it is.
 */
function configuredRegistries(runnerEnv: NodeJS.ProcessEnv, passed: readonly string[]): string[] {
  const values = passed.filter((name) => isRegistryEnv(name)).flatMap((name) => (runnerEnv[name] ?? '').split(/\s+/))
  return hostEntries(values)
}

/** The allow-list entries of registry URLs: the host name, and a loopback one with its port so it is relayed as it is. */
function hostEntries(urls: readonly string[]): string[] {
  const hosts = urls.flatMap((value) => {
    try {
      const url = new URL(value)
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return []
      return [LOOPBACK.has(url.hostname) ? `${url.hostname}:${url.port || (url.protocol === 'https:' ? 443 : 80)}` : url.hostname]
    } catch {
      return []
    }
  })
  return [...new Set(hosts)]
}

/**
 * The package indexes the files of `commit` (the run's base, before any call) declare, at the
 * repository's top and in `packageDir` (a monorepo's package): Poetry's and uv's sources in
 * pyproject.toml, the index options of the requirements files. Read from the base alone, so
 * nothing the agent writes widens what the gate may reach.
 */
export async function declaredRegistries(repository: GitRepository, commit: string, packageDir = ''): Promise<string[]> {
  const none = (): TreeEntry[] => []
  const urls: string[] = []
  for (const dir of [...new Set(['', packageDir.replace(/^\.?\/+|\/+$/g, '')])]) {
    const tree = dir ? `${commit}:${dir}` : commit
    const root = await repository.lsTree(tree).catch(none)
    const folder = await repository.lsTree(tree, { recursive: true, paths: ['requirements'] }).catch(none)
    const files = [...root, ...folder].filter((e) => e.type === 'blob' && indexDeclaringFile(e.path))
    const texts = await repository.catFileBatch([...new Set(files.map((f) => f.oid))]).catch(() => new Map<string, Buffer>())
    for (const f of files) {
      const text = texts.get(f.oid)
      if (text && text.length < 1_000_000) urls.push(...declaredIndexUrls(f.path, text.toString('utf8')))
    }
  }
  return hostEntries(urls)
}

function detects(ecosystem: (typeof ECOSYSTEMS)[number], workspace: string): boolean {
  try {
    return ecosystem.upgrade.detect(workspace)
  } catch {
    return false
  }
}

/** `allowed-hosts` when not given: the model API the meter serves, the project's ecosystems' registries, the configured ones. */
export function defaultAgentHosts(settings: Settings, runnerEnv: NodeJS.ProcessEnv, declared: readonly string[] = []): string[] {
  // A model API on loopback (a local server) is reached through the metering proxy only.
  const host = meterRouteFor(settings, runnerEnv)?.upstream.base.hostname
  const route = host && !LOOPBACK.has(host) ? host : undefined
  const registries = ECOSYSTEMS.filter((e) => detects(e, settings.workspace)).flatMap((e) => e.registries)
  return [...new Set([...(route ? [route] : []), ...registries, ...declared, ...configuredRegistries(runnerEnv, settings.agentEnv)])]
}

/**
 * `gate-allowed-hosts` when not given: none for the tests; with `gate-setup`, the registries its
 * install needs (the project's ecosystems', the indexes the base's files declare — `declared` —
 * and those the workflow's own environment configures).
 */
export function defaultGateHosts(settings: Settings, runnerEnv: NodeJS.ProcessEnv, declared: readonly string[] = []): string[] {
  if (!settings.gateSetup) return configuredRegistries(runnerEnv, settings.agentEnv)
  const registries = ECOSYSTEMS.filter((e) => detects(e, settings.workspace)).flatMap((e) => e.registries)
  const configured = configuredRegistries(runnerEnv, Object.keys(runnerEnv))
  return [...new Set([...registries, ...declared, ...configured])]
}

const isAny = (list: readonly string[] | undefined): boolean => list?.length === 1 && list[0] === '*'

function listWords(kind: SandboxKind, list: readonly string[]): string {
  if (isAny(list)) return `the ${kind} has the runner's whole network (${kind === 'agent' ? 'allowed-hosts' : 'gate-allowed-hosts'}: '*')`
  const hosts = list.length ? list.map((h) => `\`${h}\``).join(', ') : 'no host'
  return `the ${kind}'s network is loopback only, with loopgate's proxies: it may reach ${hosts}${kind === 'agent' ? ' (and the metering proxy)' : ''}`
}

/**
 * The sandbox every agent call and gate run starts in, made before any spend. Where this runner
 * cannot make the namespaces, the run stops here unless `allowed-hosts: '*'` says to go on
 * without them: weak isolation never drops the control silently.
 */
export function openNetwork(settings: Settings, runnerEnv: NodeJS.ProcessEnv, declared: readonly string[] = []): RunNetwork {
  const agent = settings.allowedHosts?.length ? settings.allowedHosts : defaultAgentHosts(settings, runnerEnv, declared)
  const gate = settings.gateAllowedHosts?.length ? settings.gateAllowedHosts : defaultGateHosts(settings, runnerEnv, declared)
  const probe = probeSandbox()
  if (!probe.ok) {
    if (!isAny(settings.allowedHosts)) {
      throw new ConfigError(
        'allowed-hosts',
        (settings.allowedHosts ?? []).join(', '),
        `'*', to run with the runner's whole network: ${probe.why}, so the agent's network cannot be limited and other runs' processes are visible`
      )
    }
    return { sandbox: null, notes: [`the agent and the gate have the runner's whole network and see every process on it (allowed-hosts: '*'): ${probe.why}`] }
  }
  const sandbox = new Sandbox(probe, { agent: hostRules(agent), gate: hostRules(gate) })
  return { sandbox, notes: [`${listWords('agent', agent)}; ${listWords('gate', gate)}; each call and gate run sees only its own processes`] }
}
