/**
 * gate-setup's install, run once per run: the leading `&&` steps of gate-setup that only install
 * the lockfile's Node packages (`npm ci`, `npm install`, `pnpm install`, `yarn install`, with
 * options and no package names) install into `node_modules` alone, so their result on the base's
 * dependency files is the same for every candidate that keeps those files. What follows them (a
 * build step, a code generator) is not an install and runs for each candidate.
 */

const INSTALL = /^(?:npm (?:ci|install|i)|pnpm (?:install|i)|yarn(?: install)?)(?: +--?[A-Za-z][\w-]*(?:=\S+)?)*$/

/** The root dependency folders such an install writes, kept as the pristine copies after it. */
export const INSTALLED_FOLDERS: readonly string[] = ['node_modules']

export interface SetupSteps {
  /** The install steps, joined again; null when gate-setup does not start with one. */
  install: string | null
  /** The rest of gate-setup; null when nothing follows the install. */
  rest: string | null
}

export function setupSteps(setup: string): SetupSteps {
  const steps = setup.split('&&').map((s) => s.trim().replace(/\s+/g, ' '))
  let n = 0
  while (n < steps.length && INSTALL.test(steps[n])) n++
  if (n === 0 || /[;|&<>`$()\n]/.test(steps.slice(0, n).join(' '))) return { install: null, rest: setup }
  const rest = setup.split('&&').slice(n).join('&&').trim()
  return { install: steps.slice(0, n).join(' && '), rest: rest || null }
}
