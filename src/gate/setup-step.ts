import type { RunResult } from '../process/run-process.js'
import type { GateVerdict } from '../loop/engine-types.js'
import type { StepEnd } from './baseline/baseline-health.js'
import type { CleanCheckout } from './checkout/checkout.js'
import type { PreparedCheckout } from './checkout/checkout-options.js'
import { setupSteps } from './toolchain/setup-installs.js'
import { readAgentText } from '../fs/tree.js'
import { failedVerdict, tamperedVerdict } from './verdict.js'
import type { Tampering } from './baseline/compare.js'

/**
 * gate-setup on a commit whose dependencies differ from the reference (as `dependency-changes:
 * registry` allows): no package's install script runs, so what a registry package brings is code
 * the tests load, never code the install runs. pip has no such switch: it installs wheels only, so
 * no source distribution's build backend runs (the project's own build, `pip install .`, still does).
 */
const SCRIPTS_OFF: NodeJS.ProcessEnv = { npm_config_ignore_scripts: 'true', YARN_ENABLE_SCRIPTS: 'false', PIP_ONLY_BINARY: ':all:' }

/** Runs one gate step in the checkout, as the gate's user, until the gate's deadline. */
export type SetupExecutor = (command: string, extra?: NodeJS.ProcessEnv, at?: StepPlace) => Promise<RunResult>

/** Where a step runs (the checkout unless `cwd`), and who reads its stdout lines as they arrive. */
interface StepPlace {
  cwd?: string
  onStdoutLine?: (line: string) => void
}

interface SetupRun {
  exec: SetupExecutor
  /** The install that is kept (see keepInstalled): on the checkout itself, outside the run's write layer. */
  install?: SetupExecutor
  /** The kept install when it ends with the project's own editable install (see kept-project.ts). */
  keepProject?: SetupExecutor
  /** After keepProject's install: what it wrote in the tree kept for every later run; why not, when it cannot be. */
  keepProjectFiles?: () => string | null
  /** The protected paths the run wrote in its write layer so far, as tampering (see write-judge.ts). */
  layerTampering?: () => Tampering[]
  prepared: PreparedCheckout
  started: number
  /** The baseline run: the one whose install is kept. */
  baseline: boolean
  /** Only the install steps, to keep them (a run whose baseline counts come from an earlier run). */
  installOnly?: boolean
  setup?: string
  timeoutMs: number
  report?: string
  checkout: CleanCheckout
}

/**
 * gate-setup in the prepared checkout; a verdict when it failed or wrote a protected path. Its
 * install steps (see toolchain/setup-installs.ts) run once on the reference's dependency files, on
 * the baseline, whose result every later run on those files gets read-only instead (a writable
 * copy when the rest of the setup installs into it); the project's own editable install right
 * after it (`pip install -e .`) is kept with it where each run has a write layer, and runs again
 * only for a commit that changes what it reads; a commit that changes the dependency files runs
 * the whole setup, install scripts off.
 */
export async function runSetup(run: SetupRun): Promise<SetupOutcome> {
  const { prepared, checkout } = run
  const steps = setupSteps(run.setup ?? '', (rel) => readAgentText(prepared.dir, rel, 1_000_000))
  const onReference = !prepared.dependenciesChanged
  if (run.installOnly && (!onReference || checkout.installed)) return { output: '' }
  const keeping = (run.baseline || run.installOnly === true) && onReference && steps.install !== null && !checkout.installed
  const env = onReference ? {} : SCRIPTS_OFF
  // The project's own editable install is kept with the install where it can run beside the run's
  // layer (see kept-project.ts): what it leaves names the checkout's path, where every candidate is.
  const project = keeping && run.keepProject && run.keepProjectFiles && !prepared.projectChanged ? steps.project : undefined
  // The rest runs after the install is kept, on the folders as every later run gets them: a rest that
  // installs into them (`pip install -e .`) finds a writable copy holding the install alone; any
  // other finds them read-only, so a step that cannot run so fails on the base, before any spend.
  if (keeping && (run.installOnly || steps.rest)) {
    const install = project ? `${steps.install} && ${project.step}` : steps.install
    const installed = await setupCommand({ ...run, exec: (project ? run.keepProject : undefined) ?? run.install ?? run.exec }, install, { env })
    if (installed.verdict) return inLayerInstead(run, installed, { ...steps, env })
    const notKept = project ? run.keepProjectFiles?.() : undefined
    const withProject = project !== undefined && notKept === null
    const note = notKept ? `\nthe project's own install is run for each gate run: ${notKept}` : ''
    const rest = withProject ? project.rest : steps.rest
    const restWrites = withProject ? project.restWrites : steps.restWrites
    const kept = checkout.keepInstalled(steps.folders, restWrites, withProject)
    if (run.installOnly) return { ...installed, output: installed.output + note }
    const readOnly = !restWrites && checkout.placeKeptReadOnly(kept)
    const ranRest = await setupCommand(run, rest, { env, cause: readOnly ? keptReadOnly(install, kept) : undefined })
    return { ...ranRest, output: `${installed.output}${note}\n${ranRest.output}` }
  }
  const onKept = onReference && checkout.installed
  const cause = onKept && checkout.keptReadOnly ? keptReadOnly(steps.install, steps.folders) : undefined
  // A kept project install stands for a fresh one while the commit keeps what it reads (see changesProject).
  const rest = onKept && checkout.projectKept && steps.project && !prepared.projectChanged ? steps.project.rest : steps.rest
  // An install that is kept writes the checkout itself (see install); any other step writes the run's layer.
  const ran = await setupCommand(keeping ? { ...run, exec: run.install ?? run.exec } : run, onKept ? rest : run.setup, { env, cause })
  if (ran.verdict && keeping) return inLayerInstead(run, ran, { ...steps, env })
  if (!ran.verdict && keeping) checkout.keepInstalled(steps.folders, steps.restWrites)
  return ran
}

interface SetupOutcome {
  output: string
  verdict?: GateVerdict
  end?: StepEnd
  /** Why gate-setup's install is not kept, when it failed on the checkout itself and passed in the run's layer. */
  notKept?: string
}

/**
 * An install that failed where it is kept (on the checkout itself, whose tracked files are root's)
 * may only have written outside its dependency folders: Yarn making a workspace package's bin
 * executable, a postinstall building each package's `dist/`. Where the run has a write layer, the
 * whole gate-setup runs again in it, where those writes are the run's own; when that passes, the
 * install is not kept and every gate run runs the whole gate-setup in its layer.
 */
async function inLayerInstead(
  run: SetupRun,
  failed: SetupOutcome,
  { folders, install, env }: { folders: readonly string[]; install: string | null; env: NodeJS.ProcessEnv }
): Promise<SetupOutcome> {
  const hasLayer = run.install !== undefined && run.install !== run.exec
  // Only an install that ended on its own with a failure: not one timed out, cancelled or that wrote a protected path.
  if (!hasLayer || !failed.end || failed.end.timedOut || failed.end.aborted || run.installOnly) return failed
  run.checkout.dropInstall(folders)
  const whole = await setupCommand(run, run.setup, { env })
  if (whole.verdict) return whole
  return {
    ...whole,
    notKept: `gate-setup's install (\`${install}\`) failed where it is kept, on the checkout itself, and passed in the gate run's write layer (it writes outside ${folders.map((f) => `\`${f}\``).join(', ') || 'its dependency folders'}): it is not kept, so each gate run runs the whole gate-setup in its own layer`
  }
}

/** Why a step after a kept install may fail: it cannot write the folders that install made. */
interface KeptReadOnly {
  folders: readonly string[]
  text: string
}

function keptReadOnly(install: string | null, folders: readonly string[]): KeptReadOnly | undefined {
  if (!install || folders.length === 0) return undefined
  const named = folders.map((f) => `\`${f}\``).join(', ')
  return {
    folders,
    text: `its install (\`${install}\`) runs once and each gate run gets ${named} read-only, so a later step of gate-setup cannot install into ${folders.length > 1 ? 'them' : 'it'}: install every package in that step (declare it in the manifest and lockfile)`
  }
}

/** One gate-setup command; a verdict when it failed or wrote a protected path. */
async function setupCommand(
  run: SetupRun,
  command: string | null | undefined,
  { env, cause }: { env: NodeJS.ProcessEnv; cause?: KeptReadOnly }
): Promise<SetupOutcome> {
  if (!command) return { output: '' }
  const { started } = run
  const s = await run.exec(command, env)
  const output = `${s.stdout}\n${s.stderr}`
  if (s.exitCode !== 0 || s.timedOut || s.aborted) {
    // Only a step that ended on its own may owe its failure to the folders it was given.
    const owed = s.timedOut || s.aborted || !cause || !refusedWriteIn(output, cause.folders) ? undefined : cause.text
    const end: StepEnd = { step: 'setup', exitCode: s.exitCode, signal: s.signal, timedOut: s.timedOut, aborted: s.aborted, ...(owed ? { cause: owed } : {}) }
    const why = s.timedOut
      ? `gate-setup timed out after ${Math.round(run.timeoutMs / 1000)} s`
      : s.aborted
        ? 'cancelled'
        : `gate-setup failed (exit ${s.exitCode ?? s.signal})${owed ? `; ${owed}` : ''}`
    return {
      output,
      end,
      verdict: { ...failedVerdict(why, { failures: [], durationMs: Date.now() - started, output }), timedOut: s.timedOut, exitCode: s.exitCode }
    }
  }
  // Nothing the setup started runs on (its run swept the gate user as it exited), and nothing
  // it wrote stands in for a protected file.
  const written = [...run.checkout.recheck(run.report), ...(run.layerTampering?.() ?? [])]
  if (written.length) return { output, verdict: tamperedVerdict(written, started, 'after gate-setup, ') }
  return { output }
}

/** Whether a step's output says a write into one of `folders` was refused (npm's EACCES, pip's Permission denied, a read-only file system). */
function refusedWriteIn(output: string, folders: readonly string[]): boolean {
  const refused = /\b(?:EACCES|EPERM|EROFS)\b|Permission denied|Read-only file system/
  const inFolder = new RegExp(`(?:^|[/'"\\s])(?:${folders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:[/'"\\s]|$)`)
  return output.split('\n').some((line) => refused.test(line) && inFolder.test(line))
}
