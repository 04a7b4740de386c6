import type { RunResult } from '../process/run-process.js'
import type { GateVerdict } from '../loop/engine-types.js'
import type { StepEnd } from './baseline/baseline-health.js'
import type { CleanCheckout } from './checkout/checkout.js'
import type { PreparedCheckout } from './checkout/checkout-options.js'
import { setupSteps } from './toolchain/setup-installs.js'
import { readAgentText } from '../fs/tree.js'
import { failedVerdict, tamperedVerdict } from './verdict.js'

/**
 * gate-setup on a commit whose dependencies differ from the reference (as `dependency-changes:
 * registry` allows): no package's install script runs, so what a registry package brings is code
 * the tests load, never code the install runs. pip has no such switch: it installs wheels only, so
 * no source distribution's build backend runs (the project's own build, `pip install .`, still does).
 */
const SCRIPTS_OFF: NodeJS.ProcessEnv = { npm_config_ignore_scripts: 'true', YARN_ENABLE_SCRIPTS: 'false', PIP_ONLY_BINARY: ':all:' }

/** Runs one gate step in the checkout, as the gate's user, until the gate's deadline. */
export type SetupExecutor = (command: string, extra?: NodeJS.ProcessEnv) => Promise<RunResult>

export interface SetupRun {
  exec: SetupExecutor
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
 * copy when the rest of the setup installs into it, as `pip install -e .` does); a commit that
 * changes the dependency files runs the whole setup, install scripts off.
 */
export async function runSetup(run: SetupRun): Promise<{ output: string; verdict?: GateVerdict; end?: StepEnd }> {
  const { prepared, checkout } = run
  const steps = setupSteps(run.setup ?? '', (rel) => readAgentText(prepared.dir, rel, 1_000_000))
  const onReference = !prepared.dependenciesChanged
  if (run.installOnly && (!onReference || checkout.installed)) return { output: '' }
  const keeping = (run.baseline || run.installOnly === true) && onReference && steps.install !== null && !checkout.installed
  const env = onReference ? {} : SCRIPTS_OFF
  // A rest that installs into the kept folders runs after they are kept, so they hold the install alone.
  if (keeping && (run.installOnly || steps.restWrites)) {
    const installed = await setupCommand(run, steps.install, env)
    if (installed.verdict) return installed
    checkout.keepInstalled(steps.folders, steps.restWrites)
    if (run.installOnly) return installed
    const rest = await setupCommand(run, steps.rest, env)
    return { ...rest, output: `${installed.output}\n${rest.output}` }
  }
  const ran = await setupCommand(run, onReference && checkout.installed ? steps.rest : run.setup, env)
  if (!ran.verdict && keeping) checkout.keepInstalled(steps.folders, steps.restWrites)
  return ran
}

/** One gate-setup command; a verdict when it failed or wrote a protected path. */
async function setupCommand(
  run: SetupRun,
  command: string | null | undefined,
  env: NodeJS.ProcessEnv
): Promise<{ output: string; verdict?: GateVerdict; end?: StepEnd }> {
  if (!command) return { output: '' }
  const { started } = run
  const s = await run.exec(command, env)
  const output = `${s.stdout}\n${s.stderr}`
  if (s.exitCode !== 0 || s.timedOut || s.aborted) {
    const end: StepEnd = { step: 'setup', exitCode: s.exitCode, signal: s.signal, timedOut: s.timedOut, aborted: s.aborted }
    const why = s.timedOut
      ? `gate-setup timed out after ${Math.round(run.timeoutMs / 1000)} s`
      : s.aborted
        ? 'cancelled'
        : `gate-setup failed (exit ${s.exitCode ?? s.signal})`
    return {
      output,
      end,
      verdict: { ...failedVerdict(why, { failures: [], durationMs: Date.now() - started, output }), timedOut: s.timedOut, exitCode: s.exitCode }
    }
  }
  // Nothing the setup started runs on (its run swept the gate user as it exited), and nothing
  // it wrote stands in for a protected file.
  const written = run.checkout.recheck(run.report)
  if (written.length) return { output, verdict: tamperedVerdict(written, started, 'after gate-setup, ') }
  return { output }
}
