import { existsSync, statSync } from 'node:fs'
import { readAgentText } from '../../fs/tree.js'
import path from 'node:path'
import { onPath } from '../../agents/install.js'

/** Words a shell runs itself: no program to look for. */
const SHELL_WORDS = new Set(
  '! [ [[ { ( . : alias bg cd command eval exec exit export false fg for function hash if jobs let local printf pwd read readonly return set shift source test time trap true type ulimit umask unset until wait while echo'.split(
    ' '
  )
)

/** The program a shell command starts with, when it is a bare name looked up on PATH; else null. */
function leadingProgram(command: string): string | null {
  const words = command.trim().split(/\s+/)
  let i = 0
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i])) i++
  const word = words[i]
  if (!word || !/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(word) || SHELL_WORDS.has(word)) return null
  return word
}

/** The package manager the project declares: package.json's `packageManager`, else its lockfile. */
export function declaredPackageManager(workspace: string): { name: string; why: string } | null {
  // The checkout's files are read as bounded data: a regular file, no link followed, size capped.
  const text = readAgentText(workspace, 'package.json', 64 * 1024)
  if (text) {
    try {
      const pm = (JSON.parse(text) as { packageManager?: unknown }).packageManager
      if (typeof pm === 'string' && /^[a-z]+@/.test(pm)) return { name: pm.split('@')[0], why: `package.json declares "packageManager": "${pm.slice(0, 80)}"` }
    } catch {
      // not JSON: no declaration
    }
  }
  const locks: [string, string][] = [
    ['pnpm-lock.yaml', 'pnpm'],
    ['yarn.lock', 'yarn'],
    ['bun.lockb', 'bun'],
    ['bun.lock', 'bun']
  ]
  for (const [file, name] of locks) if (existsSync(path.join(workspace, file))) return { name, why: `the project has a ${file}` }
  return null
}

/**
 * When the gate runs as a user of its own, a program under a folder only its owner can search
 * (root's home) cannot start there. Judged by the folders' "other" search bit.
 */
function reachableByAll(file: string): boolean {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      if ((statSync(dir).mode & 0o001) === 0) return false
    } catch {
      return false
    }
  }
  return true
}

const INSTALL_HINT: Record<string, string> = {
  pnpm: 'install pnpm before loopgate runs (`corepack enable`; in a workflow, pnpm/action-setup or corepack after setup-node)',
  yarn: 'install yarn before loopgate runs (`corepack enable`; in a workflow, after setup-node)',
  bun: 'install bun before loopgate runs (in a workflow, oven-sh/setup-bun)',
  npm: 'install Node before loopgate runs (in a workflow, actions/setup-node)',
  npx: 'install Node before loopgate runs (in a workflow, actions/setup-node)',
  node: 'install Node before loopgate runs (in a workflow, actions/setup-node)'
}

/**
 * Why the gate cannot start because its first program is missing from the PATH the gate gets, or
 * null. A `gate-setup` may install what the gate command runs, so with one only the set-up's own
 * program is looked for.
 */
export function missingGateProgram(
  gate: { gateCommand: string; gateSetup?: string },
  where: { path: string | undefined; workspace: string; ownUser: boolean }
): string | null {
  const [input, command] = gate.gateSetup ? ['gate-setup', gate.gateSetup] : ['gate-command', gate.gateCommand]
  const program = leadingProgram(command)
  if (!program) return null
  const found = onPath(program, where.path)
  if (found && where.ownUser && !reachableByAll(found)) {
    return `the \`${input}\` cannot start: its program \`${program}\` is installed only where other users cannot reach it (${found}), and the gate runs as its own user. Fix: install ${program} where every user can run it (a system-wide install; in a workflow, setup-node, setup-python and corepack do), or name it by a path every user can reach. Nothing was spent.`
  }
  if (found) return null
  const declared = declaredPackageManager(where.workspace)
  const declaredWords = declared && (declared.name === program || INSTALL_HINT[program]) ? ` (${declared.why})` : ''
  const hint = INSTALL_HINT[program] ?? `install ${program} before loopgate runs, or change \`${input}\``
  return `the \`${input}\` cannot start: its program \`${program}\` is not installed (not on the gate's PATH)${declaredWords}. Fix: ${hint}. Nothing was spent.`
}
