/** Where a sandbox's processes may connect through loopgate's forward proxy. */
export interface HostRules {
  /** `'*'`: the runner's whole network (no network namespace). */
  any: boolean
  /** Exact names (lower case) and `*.suffix` patterns. */
  patterns: readonly string[]
}

const NAME = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/
const IPV6 = /^\[[0-9a-f:.]+\](?::\d{1,5})?$/

/** Why an entry of an allow-list is not one (null when it is): a host name, `*.suffix`, an address, optionally `:port`. */
export function badHostEntry(entry: string): string | null {
  const e = entry.toLowerCase()
  if (NAME.test(e) || IPV6.test(e)) {
    const port = /:(\d+)$/.exec(e.replace(/^\[[^\]]*\]/, ''))
    if (port && (Number(port[1]) < 1 || Number(port[1]) > 65535)) return 'a port from 1 to 65535'
    return null
  }
  return 'an exact host name, `*.suffix`, an IP address, each optionally with `:port`, or `*` alone'
}

/** The rules of a list as parsed (entries already checked with badHostEntry); `['*']` is the whole network. */
export function hostRules(entries: readonly string[]): HostRules {
  if (entries.length === 1 && entries[0] === '*') return { any: true, patterns: [] }
  return { any: false, patterns: [...new Set(entries.map((e) => e.toLowerCase()))] }
}

function splitPort(pattern: string): { host: string; port: number | null } {
  const m = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(pattern)
  return m ? { host: m[1].replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : null } : { host: pattern, port: null }
}

/** Whether `host:port` is allowed: an exact name, or a name under a `*.suffix` (not the suffix itself). */
export function hostAllowed(rules: HostRules, host: string, port: number): boolean {
  if (rules.any) return true
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
  return rules.patterns.some((pattern) => {
    const p = splitPort(pattern)
    if (p.port !== null && p.port !== port) return false
    return p.host.startsWith('*.') ? name.endsWith(p.host.slice(1)) && name.length > p.host.length - 1 : name === p.host
  })
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])

/** The loopback ports an allow-list names (`127.0.0.1:5432`): relayed into the namespace as they are, for clients that use no proxy. */
export function loopbackPorts(rules: HostRules): number[] {
  return rules.patterns.flatMap((pattern) => {
    const p = splitPort(pattern)
    return p.port !== null && LOOPBACK.has(p.host) ? [p.port] : []
  })
}

/** Loopback names the allow-list lets through the proxy on any port: they stay out of NO_PROXY so their requests reach it. */
export function proxiedLoopback(rules: HostRules): string[] {
  return [...LOOPBACK].filter((name) => rules.patterns.some((pattern) => pattern === name))
}
