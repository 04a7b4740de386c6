import { existsSync } from 'node:fs'
import path from 'node:path'
import { readAgentText } from '../../fs/tree.js'

/**
 * A gate that would fetch its runner from the registry as the judge: `npx <runner>`, `bunx`,
 * `npm exec` / `npm x` for a package the base does not depend on (nor has installed), and
 * `pnpm dlx` / `yarn dlx`, which always fetch. The judge runs the runner the base's lockfile
 * names, never the newest one a registry serves.
 */

const DEPENDENCY_KEYS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const

/** The package a fetching word runs, with how it was asked for; null when the command fetches nothing. */
function fetched(words: string[]): { how: string; pkg: string; always: boolean } | null {
  let i = 0
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++
  const [first, second] = [words[i], words[i + 1]]
  let rest: string[]
  let how: string
  let always = false
  if (first === 'npx' || first === 'bunx' || first === 'pnpx') [how, rest] = [first, words.slice(i + 1)]
  else if (first === 'npm' && (second === 'exec' || second === 'x')) [how, rest] = [`npm ${second}`, words.slice(i + 2)]
  else if ((first === 'pnpm' || first === 'yarn') && second === 'dlx') [how, rest, always] = [`${first} dlx`, words.slice(i + 2), true]
  else return null
  let pkg: string | null = null
  for (let j = 0; j < rest.length && !pkg; j++) {
    const w = rest[j]
    if (w.startsWith('--package=')) pkg = w.slice('--package='.length)
    else if (w === '-p' || w === '--package') pkg = rest[j + 1] ?? null
    else if (w === '--') continue
    else if (!w.startsWith('-')) pkg = w
  }
  if (!pkg) return null
  return { how, pkg: pkg.replace(/^((?:@[^/@]+\/)?[^@]+)@.*$/, '$1'), always }
}

/** The base's own dependency names (its root package.json). */
function declared(workspace: string): Set<string> {
  const text = readAgentText(workspace, 'package.json', 1024 * 1024)
  const names = new Set<string>()
  if (!text) return names
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>
    for (const key of DEPENDENCY_KEYS) {
      const deps = manifest[key]
      if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) names.add(name)
    }
  } catch {
    // not JSON: no dependency declared
  }
  return names
}

/** Why the gate would fetch its runner from the registry, or null. */
export function fetchedRunner(gate: { gateCommand: string; gateSetup?: string }, workspace: string): string | null {
  for (const [input, command] of [
    ['gate-setup', gate.gateSetup],
    ['gate-command', gate.gateCommand]
  ] as const) {
    if (!command) continue
    for (const simple of command.split(/&&|\|\||[;|\n]/)) {
      const run = fetched(simple.trim().split(/\s+/).filter(Boolean))
      if (!run) continue
      const bin = path.posix.basename(run.pkg)
      const installed = existsSync(path.join(workspace, 'node_modules', '.bin', bin))
      if (!run.always && (declared(workspace).has(run.pkg) || installed)) continue
      const why = run.always
        ? `\`${run.how}\` always fetches \`${run.pkg}\` from the registry`
        : `\`${run.pkg}\` is not among the base's dependencies (package.json) nor installed, so \`${run.how}\` would fetch it from the registry`
      return `the ${input} would judge with a runner the base does not hold: ${why}, the newest one it serves, not the lockfile's. Fix: add ${run.pkg} to devDependencies and the lockfile and run it installed (\`npx ${bin}\` or \`pnpm exec ${bin}\` then finds it), or change \`${input}\`. Nothing was spent.`
    }
  }
  return null
}
