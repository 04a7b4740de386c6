import { directConnection, type Refusal } from '../isolation/egress-log.js'
import { codeSpan } from '../report/inert.js'

const MAX_ROWS = 30

function what(r: Refusal): string {
  if (r.kind === 'connect' || r.kind === 'udp') {
    if (r.host !== '?') return codeSpan(directConnection(r), { inTable: true, max: 120 })
    return r.kind === 'udp' ? 'a UDP datagram, its destination unseen' : 'a direct connection (no proxy), its destination unseen'
  }
  if (r.kind === 'dns') return `DNS lookup of ${codeSpan(r.host, { inTable: true, max: 120 })}`
  return codeSpan(`${r.host}:${r.port}`, { inTable: true, max: 120 })
}

/**
 * Every connection the run's sandboxes refused: which process, where, how often. A maintainer tells
 * an exfiltration attempt from a missing `allowed-hosts` entry here.
 */
export function networkSection(refused: readonly Refusal[] | undefined): string {
  if (!refused || refused.length === 0) return ''
  const rows = [...refused].sort((a, b) => b.count - a.count).slice(0, MAX_ROWS)
  const table = ['| process | refused | count |', '|---|---|--:|', ...rows.map((r) => `| ${r.process} | ${what(r)} | ${r.count} |`)]
  if (refused.length > rows.length) table.push(`| … | ${refused.length - rows.length} more (the attempt log has them all) | |`)
  return [
    '<details><summary>Network refused</summary>',
    '',
    "Connections the agent's or the gate's processes tried outside `allowed-hosts` / `gate-allowed-hosts`: each failed. A host the work needs goes in the allow-list; any other is worth a look.",
    '',
    table.join('\n'),
    '</details>'
  ].join('\n')
}
