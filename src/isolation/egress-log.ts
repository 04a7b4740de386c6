/** Which of a run's processes tried to connect. */
export type SandboxKind = 'agent' | 'gate'

/** How a connection was refused: by the forward proxy (a request), the DNS stub, or the kernel (a direct connection, a UDP datagram nothing answered). */
export type RefusalKind = 'proxy' | 'dns' | 'connect' | 'udp'

/** One refused destination and how often. */
export interface Refusal {
  process: SandboxKind
  kind: RefusalKind
  /** The host asked for, or the address a direct connection or datagram went to; `?` where it was not seen. */
  host: string
  /** 0 where it was not seen (a direct connection no watcher named, or, without the packet watcher, reset by a blocking connect). */
  port: number
  count: number
}

const MAX_ROWS = 500

/** Every connection a run's sandboxes refused, counted by process, kind, host and port. */
export class EgressLog {
  private readonly rows = new Map<string, Refusal>()
  private readonly told = new Map<string, number>()

  record({ process, kind, host, port, count = 1 }: Omit<Refusal, 'count'> & { count?: number }): void {
    const key = `${process} ${kind} ${host} ${port}`
    const row = this.rows.get(key)
    if (row) row.count += count
    else if (this.rows.size < MAX_ROWS) this.rows.set(key, { process, kind, host, port, count })
  }

  /** Every refusal of the run so far. */
  all(): Refusal[] {
    return [...this.rows.values()].map((r) => ({ ...r }))
  }

  /** The refusals of `process` since this was last asked about it (counts as the difference). */
  since(process: SandboxKind): Refusal[] {
    const out: Refusal[] = []
    for (const [key, row] of this.rows) {
      if (row.process !== process) continue
      const before = this.told.get(key) ?? 0
      if (row.count > before) out.push({ ...row, count: row.count - before })
      this.told.set(key, row.count)
    }
    return out
  }
}

/** One refusal in words: `agent: evil.example:443 (proxy) ×3`. */
export function refusalLine(r: Refusal): string {
  const what = r.kind === 'connect' || r.kind === 'udp' ? directConnection(r) : r.kind === 'dns' ? `DNS lookup of ${r.host}` : `${r.host}:${r.port}`
  return `${r.process}: ${what} ×${r.count}`
}

/** A direct connection (no proxy) or a UDP datagram in words: `10.0.0.7:443 (direct connection)`, `8.8.8.8:123 (UDP datagram)`, as much of the destination as was seen. */
export function directConnection(r: Pick<Refusal, 'kind' | 'host' | 'port'>): string {
  const what = r.kind === 'udp' ? 'UDP datagram' : 'direct connection'
  if (r.host === '?') return `${what}(s), destination unseen`
  const host = r.host.includes(':') ? `[${r.host}]` : r.host
  return `${host}:${r.port || '?'} (${what})`
}
