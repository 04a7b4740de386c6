/**
 * gate-setup's install, run once per run: the leading `&&` steps of gate-setup that only install
 * the reference's locked dependencies into root dependency folders, so their result on the
 * reference's dependency files is the same for every candidate that keeps those files.
 * - Node: `npm ci`, `npm install`, `pnpm install`, `yarn install`, with options and no package
 *   names, into `node_modules`.
 * - Python (see python-installs.ts): `python -m venv .venv` (or `venv`), `.venv/bin/pip install
 *   -r requirements.txt [-c constraints.txt]` (or `pip install -r …` after `. .venv/bin/activate`),
 *   `poetry install --no-root` into an in-project `.venv`, into that folder.
 * What follows them (a build step, a code generator) is not an install and runs for each
 * candidate; the project's own editable install right after a Python install (`pip install -e .`)
 * is named apart (`project`), to be kept with the install where setup-step.ts can.
 */
import { projectInstallStep, pythonInstallStep, WRITES_VIRTUALENV, type CheckoutReader, type PythonContext } from './python-installs.js'

export type { CheckoutReader } from './python-installs.js'

const NODE_INSTALL = /^(?:npm (?:ci|install|i)|pnpm (?:install|i)|yarn(?: install)?)(?: +--?[A-Za-z][\w-]*(?:=\S+)?)*$/

interface SetupSteps {
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
  /**
   * The project's own editable install right after a Python install (see projectInstallStep), when
   * there is one: `step`, the rest after it (after the activation, as `rest`), and whether that
   * writes into the virtualenv. Kept with the install where the gate runs in write layers (see
   * setup-step.ts); `rest` holds it otherwise.
   */
  project?: { step: string; rest: string | null; restWrites: boolean }
}

const NONE = (setup: string): SetupSteps => ({ install: null, rest: setup, folders: [], restWrites: false })
const QUOTED_EXTRAS = /(['"])\.\/?\[[A-Za-z0-9_.,-]+\]\1/g

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
  const withActivation = (text: string): string | null => (text ? [...kept, text].join(' && ') : null)
  // The project step may quote its extras (`-e '.[test]'`): nothing else in it is quoted.
  const next = steps[writing]
  const projectFolders = python && next !== undefined && !/[;|&<>`$()\n'"\\]/.test(next.replace(QUOTED_EXTRAS, '.')) ? projectInstallStep(next, ctx) : null
  const afterProject = raw
    .slice(writing + 1)
    .join('&&')
    .trim()
  return {
    install: steps.slice(0, writing).join(' && '),
    rest: withActivation(rest),
    folders: [...folders],
    restWrites: python && WRITES_VIRTUALENV.test(rest),
    ...(projectFolders && projectFolders.every((f) => folders.has(f))
      ? { project: { step: next, rest: withActivation(afterProject), restWrites: WRITES_VIRTUALENV.test(afterProject) } }
      : {})
  }
}

/**
 * Whether a changed path (from the reference) is one the project's own install reads beyond its
 * code: its build configuration at the root (`pyproject.toml`, `setup.py`, `setup.cfg`,
 * `MANIFEST.in`) or any other module at the root (an in-tree build backend, a `hatch_build.py`, a
 * module `setup.py` imports). The kept editable install is then not what a fresh one would be.
 */
export function changesProject(rel: string): boolean {
  return !rel.includes('/') && (/^(?:pyproject\.toml|setup\.cfg|MANIFEST\.in)$/.test(rel) || rel.endsWith('.py'))
}
