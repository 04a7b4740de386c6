// What a run needs beyond the command line's own checks, in a module of its own: the command line
// loads it while the work copy is written, so the two overlap.
export { runSession } from '../session/flow.js'
export { DryRunPublisher } from '../publish/dry-run.js'
export { localStateOpener } from './local-state.js'
