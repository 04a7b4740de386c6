import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import yaml from 'js-yaml'
import { ROOT } from './action-runner.js'

export interface WorkflowStep {
  id?: string
  name?: string
  if?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
export interface WorkflowJob {
  if?: string
  needs?: string | string[]
  'timeout-minutes'?: number
  concurrency?: { group: string }
  permissions?: Record<string, string>
  outputs?: Record<string, string>
  steps: WorkflowStep[]
}
export interface Workflow {
  on: Record<string, unknown>
  permissions?: Record<string, string>
  concurrency?: { group: string }
  jobs: Record<string, WorkflowJob>
}

export const EXAMPLES = readdirSync(path.join(ROOT, 'examples', 'workflows'))
  .filter((f) => f.endsWith('.yml'))
  .map((f) => `examples/workflows/${f}`)
export const OWN_WORKFLOWS = readdirSync(path.join(ROOT, '.github', 'workflows'))
  .filter((f) => f.endsWith('.yml'))
  .map((f) => `.github/workflows/${f}`)

export const readText = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')
export const readWorkflow = (file: string): Workflow => yaml.load(readText(file)) as Workflow

export const isLoopgate = (s: WorkflowStep): boolean => /^loopgate\/loopgate@/.test(s.uses ?? '')

/** The job that runs loopgate, and its loopgate step. */
export function loopJob(wf: Workflow): { name: string; job: WorkflowJob; step: WorkflowStep } {
  for (const [name, job] of Object.entries(wf.jobs)) {
    const step = job.steps?.find(isLoopgate)
    if (step) return { name, job, step }
  }
  throw new Error('no job runs loopgate')
}

type Payload = Record<string, any>
const recordedExamples = createRequire(import.meta.url)('@octokit/webhooks-examples') as { name: string; examples: Payload[] }[]

/** A recorded webhook payload of GitHub's (the first that `pick` accepts), as a copy. */
export function recorded(name: string, pick: (p: Payload) => boolean = () => true): Payload {
  const found = recordedExamples.find((e) => e.name === name)?.examples.find(pick)
  if (!found) throw new Error(`no recorded ${name} payload`)
  return structuredClone(found)
}
