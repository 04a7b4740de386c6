import type { GateVerdict } from '../loop/engine-types.js'
import type { UpgradeCandidate } from '../ecosystems/types.js'

const MAX_FAILURES = 20

function gateSection(gateCommand: string, verdict: GateVerdict): string[] {
  const lines = [`The protected gate (\`${gateCommand}\`) on the bumped tree: ${verdict.passed ? 'passed' : `failed (${verdict.reason})`}.`]
  for (const f of verdict.failures.slice(0, MAX_FAILURES)) lines.push(`- failing: ${f.id}${f.message ? ` — ${f.message}` : ''}`)
  for (const id of verdict.flaky ?? [])
    lines.push(`- flaky, not your task: ${id} (failed on the bumped tree, then passed when the gate ran again on the same commit)`)
  if (verdict.failures.length > MAX_FAILURES) lines.push(`- … and ${verdict.failures.length - MAX_FAILURES} more failing tests`)
  // The output too: a failure id alone often hides what the new version broke (an import error).
  if (!verdict.passed && verdict.outputTail.trim()) {
    lines.push('Gate output (end):', '```', verdict.outputTail.trim().split('\n').slice(-40).join('\n').slice(-4000), '```')
  }
  return lines
}

/** The folder of installed packages a copy is in: `node_modules`, or a workspace package's own `packages/a/node_modules`. */
const packagesFolder = (copy: string): string => {
  const at = copy.lastIndexOf('node_modules/')
  return at === -1 ? copy.split('/')[0] : copy.slice(0, at + 'node_modules'.length)
}

/** The agent's task for one upgrade: make the gate pass with the new version. */
export function upgradeTask(opts: {
  candidate: UpgradeCandidate
  bumpCommit: string
  bumpFiles: readonly string[]
  gateCommand: string
  verdict: GateVerdict
  releaseNotes: readonly string[]
}): string {
  const { candidate: c } = opts
  // Where the ecosystem's bump left the new version installed (none when it edits the manifest only).
  const installed = c.installedCopy ?? null
  return [
    `Dependency upgrade: ${c.name} from ${c.from} to ${c.to} (a ${c.kind} upgrade, in ${c.type}).`,
    '',
    `loopgate has already bumped ${c.name} to ${c.to} in ${opts.bumpFiles.join(' and ')} (commit ${opts.bumpCommit.slice(0, 12)})` +
      (installed ? ` and installed it in ${packagesFolder(installed)}. ` : '. ') +
      `Your task: make the project work with ${c.name} ${c.to} so that the protected gate passes. Change the code that uses ${c.name}; ` +
      `do not move ${c.name} back or to another version, do not pin, override or patch it, and do not edit the tests.`,
    '',
    ...gateSection(opts.gateCommand, opts.verdict),
    '',
    opts.releaseNotes.length > 0
      ? `Where the changes of ${c.name} ${c.to} are described:`
      : `The registry names no changelog or release notes for ${c.name} ${c.to}${installed ? `; read the installed package in ${installed}` : ''}.`,
    ...opts.releaseNotes.map((l) => `- ${l}`)
  ].join('\n')
}
