import { dependencyUpgrade } from './dependency-upgrade/index.js'
import { fixDependencyPr } from './fix-dependency-pr/index.js'
import { prompt } from './prompt/index.js'
import type { TaskName, TaskSpec } from './task-spec.js'

export type { BaselinePlan, PassingBump, TaskName, TaskSpec, TaskWork } from './task-spec.js'

/**
 * The tasks, one descriptor each: a folder `src/tasks/<name>/` whose `index.ts` holds every fact
 * the run reads of the task (see task-spec.ts), and one line here.
 */
export const TASK_SPECS: readonly TaskSpec[] = [prompt, dependencyUpgrade, fixDependencyPr]

const registry = new Map<TaskName, TaskSpec>(TASK_SPECS.map((spec) => [spec.name, spec]))

/** The task's descriptor: the `task` input's value, or the user's prompt when none was given. */
export function taskSpec(name: TaskName | undefined): TaskSpec {
  const spec = registry.get(name ?? 'prompt')
  if (!spec) throw new Error(`unknown task ${JSON.stringify(name)} (known: ${[...registry.keys()].join(', ')})`)
  return spec
}
