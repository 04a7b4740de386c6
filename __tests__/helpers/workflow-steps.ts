import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parseFileCommands } from './action-runner.js'
import { tempDir } from './repo.js'
import { type Contexts, substitute } from './workflow-expressions.js'
import type { WorkflowStep } from './workflow-files.js'

export interface StepRun {
  status: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
}

/**
 * Runs a workflow's `run:` step as the runner does on Linux (`bash --noprofile --norc -eo pipefail`),
 * its `env:` rendered from `contexts` and its outputs read from GITHUB_OUTPUT. Asynchronous, so a
 * server in this process (the local GitHub server) can answer it.
 */
export async function runStep(step: WorkflowStep, contexts: Contexts, env: Record<string, string> = {}): Promise<StepRun> {
  if (!step.run) throw new Error(`step ${step.name ?? step.id ?? '?'} has no run:`)
  const dir = tempDir('loopgate-step-')
  const output = path.join(dir, 'output')
  writeFileSync(output, '')
  const rendered = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]))
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', substitute(step.run, contexts)], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GITHUB_OUTPUT: output, ...env, ...rendered },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return { status, stdout, stderr, outputs: parseFileCommands(readFileSync(output, 'utf8')) }
}
