import type { TaskSpec } from '../task-spec.js'

/** The user's own task, from `prompt` or `prompt-file`: the loop runs on it as written. */
export const prompt: TaskSpec = {
  name: 'prompt',
  // A resumed run's HEAD is the unfinished work: its baseline runs on the base that work started from.
  baseline: { alongside: true, onBump: false, fromResumedBase: true },
  bumpCommit: () => undefined,
  dependencyReference: (_work, resumedBase) => ({ commit: resumedBase }),
  loopTask: (_work, settings) => settings.prompt
}
