import { randomUUID } from 'node:crypto'
import path from 'node:path'
import type { AgentUser } from '../isolation/agent-user.js'
import { killUserProcesses } from '../isolation/agent-user.js'
import { quoted } from './reports/command-words.js'
import { runProcess, type Launcher } from '../process/run-process.js'
import { gateCacheEnv } from './toolchain/package-caches.js'
import { withoutUnreachable } from './protection/toolchain-reach.js'
import type { SetupExecutor } from './setup-step.js'
import type { ProcessStart } from './mount-namespace.js'

/** What every gate step of a run shares: its user, its scrubbed environment and the run's abort signal. */
interface GateProcessOptions {
  env: NodeJS.ProcessEnv
  user?: AgentUser
  signal?: AbortSignal
  /** Starts each step (the sandbox's namespaces). */
  launch?: Launcher
}

/** Runs a gate step in the checkout, as the gate's user, in its environment, until the gate's deadline. */
export function gateExecutor(
  opts: GateProcessOptions,
  run: {
    prepared: { dir: string; home: string; tmp: string }
    deadline: number
    unreachable: string[]
    /** How a step starts in the run's write layer (it drops to the gate user itself). */
    start?: (script: string) => Promise<ProcessStart>
  }
): SetupExecutor {
  const { prepared, deadline } = run
  const user = opts.user
  const env: NodeJS.ProcessEnv = {
    ...opts.env,
    PATH: withoutUnreachable(opts.env.PATH, run.unreachable),
    HOME: prepared.home,
    TMPDIR: prepared.tmp,
    XDG_CACHE_HOME: path.join(prepared.home, '.cache'),
    ...gateCacheEnv(prepared.home, prepared.dir),
    // npx and npm exec run only what is installed: never a runner fetched from the registry as the judge.
    npm_config_yes: 'false',
    CI: opts.env.CI ?? 'true'
  }
  if (user) Object.assign(env, { USER: user.name, LOGNAME: user.name })
  return async (command, extra = {}, { cwd = prepared.dir, onStdoutLine } = {}) => {
    // The write layer's process starts in the checkout: a package folder below it is entered by the script.
    const script = cwd === prepared.dir ? command : `cd ${quoted(cwd)} && ${command}`
    const layered = run.start ? await run.start(script) : null
    return runProcess({
      command: layered?.command ?? '/bin/bash',
      args: layered?.args ?? ['-c', command],
      cwd,
      env: { ...env, ...extra },
      timeoutMs: Math.max(1, deadline - Date.now()),
      signal: opts.signal,
      uid: layered ? undefined : user?.uid,
      gid: layered ? undefined : user?.gid,
      callId: randomUUID(),
      sweep: user ? () => void killUserProcesses(user) : undefined,
      maxOutputChars: 1_000_000,
      onStdoutLine,
      launch: opts.launch
    })
  }
}
