/**
 * gate-setup's install, run once per run: the leading `&&` steps of gate-setup that only install
 * the reference's locked dependencies into root dependency folders, so their result on the
 * reference's dependency files is the same for every candidate that keeps those files.
 * - Node: `npm ci`, `npm install`, `pnpm install`, `yarn install`, with options and no package
 *   names, into `node_modules`.
 * - Python (see python-installs.ts): `python -m venv .venv` (or `venv`), `.venv/bin/pip install
 *   -r requirements.txt [-c constraints.txt]` (or `pip install -r …` after `. .venv/bin/activate`),
 *   `poetry install --no-root` into an in-project `.venv`, into that folder.
 * What follows them (a build step, a code generator, the project's own `pip install -e .`) is not
 * an install and runs for each candidate.
 */
import { pythonInstallStep, WRITES_VIRTUALENV, type CheckoutReader, type PythonContext } from './python-installs.js'

export type { CheckoutReader } from './python-installs.js'

const NODE_INSTALL = /^(?:npm (?:ci|install|i)|pnpm (?:install|i)|yarn(?: install)?)(?: +--?[A-Za-z][\w-]*(?:=\S+)?)*$/

export interface SetupSteps {
  /** The install steps, joined again; null when gate-setup does not start with one. */
  install: string | null
  /** The rest of gate-setup (after the virtualenv's activation, when the install activated one); null when nothing follows the install. */
  rest: string | null
  /** The root dependency folders the install writes, kept as the pristine copies after it. */
  folders: string[]
  /**
   * The rest installs into the kept virtualenv (`pip install -e .`): each gate run gets a writable
   * copy of the kept folders, as it got a virtualenv of its own when the whole setup ran for it. A
   * node_modules stays read-only: what runs after its install (a build of the commit's code) never
   * writes the judge's libraries.
   */
  restWrites: boolean
}

const NONE = (setup: string): SetupSteps => ({ install: null, rest: setup, folders: [], restWrites: false })

/** gate-setup split into its install steps and the rest; `read` gives the checkout's requirements files and Poetry's files. */
export function setupSteps(setup: string, read: CheckoutReader = () => null): SetupSteps {
  const raw = setup.split('&&')
  const steps = raw.map((s) => s.trim().replace(/\s+/g, ' '))
  const ctx: PythonContext = { read, active: null, poetryInProject: false }
  const folders = new Set<string>()
  const activations: string[] = []
  let n = 0
  let writing = 0
  for (; n < steps.length; n++) {
    if (/[;|&<>`$()\n'"\\]/.test(steps[n])) break
    const step = NODE_INSTALL.test(steps[n]) ? { folders: ['node_modules'] } : pythonInstallStep(steps[n], ctx)
    if (!step) break
    if (step.activation) activations.push(steps[n])
    for (const f of step.folders) folders.add(f)
    if (step.folders.length) writing = n + 1
  }
  // Steps that only set up (an activation, Poetry's setting) and install nothing after them belong to the rest.
  if (writing === 0) return NONE(setup)
  const rest = raw.slice(writing).join('&&').trim()
  const python = [...folders].some((f) => f !== 'node_modules')
  const kept = activations.filter((a) => steps.indexOf(a) < writing)
  return {
    install: steps.slice(0, writing).join(' && '),
    rest: rest ? [...kept, rest].join(' && ') : null,
    folders: [...folders],
    restWrites: python && WRITES_VIRTUALENV.test(rest)
  }
}
