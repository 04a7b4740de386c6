import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { buggyProject, makeRepo, sh, tempDir } from './repo.js'
import { type Contexts, substitute } from './workflow-expressions.js'
import type { WorkflowStep } from './workflow-files.js'

/** The inputs only the real agents read: an example's `agent: command` stand-in has no use for them. */
const REAL_AGENT_INPUTS = ['anthropic-api-key', 'claude-code-oauth-token', 'openai-api-key', 'provider', 'model', 'price-table', 'max-turns']

/** Placeholder values for every secret and variable an example names (`test-secret-NAME`). */
export function placeholders(prefix: string, known: Record<string, string> = {}): Record<string, string> {
  return new Proxy(known, { get: (target, name) => (typeof name === 'string' ? (target[name] ?? `${prefix}-${name}`) : undefined) })
}

/**
 * The loopgate step's inputs as the runner passes them: each `with:` value rendered, the
 * `github-token` default (`github.token`) filled in, and, where the example uses Claude Code or
 * Codex, `agent: command` with `agentCommand` in its place (the real CLIs have their own tests).
 */
export function loopInputs(step: WorkflowStep, contexts: Contexts, agentCommand: string): { inputs: Record<string, string>; env: Record<string, string> } {
  const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]))
  for (const name of REAL_AGENT_INPUTS) delete inputs[name]
  inputs.agent = 'command'
  inputs['agent-command'] = agentCommand
  inputs['github-token'] ??= String((contexts.github as { token: string }).token)
  const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), contexts)]))
  return { inputs, env }
}

/**
 * The project every example runs on: `npm test` fails until add() adds, one dependency from the
 * local registry named in its .npmrc (mathlib, locked at 1.0.0: 1.1.0 is newer and compatible), the task files the
 * examples name under .github/loopgate/, and a branch `feature` one commit ahead of main.
 */
export function exampleRemote(registryEnv: Record<string, string>, registryUrl: string): { server: string; bare: string } {
  const seed = makeRepo({
    ...buggyProject(),
    // The project's own registry setting, as a project on a private registry has it.
    '.npmrc': `registry=${registryUrl}\n`,
    'package.json': JSON.stringify({ name: 'proj', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node test/run.mjs' } }, null, 2),
    '.gitignore': 'node_modules\n',
    '.github/loopgate/task.md': 'Make the tests pass.\n',
    '.github/loopgate/pr-review.md': 'Make the pull request’s tests pass.\n'
  })
  execFileSync('npm', ['install', 'mathlib@1.0.0', '--no-audit', '--no-fund'], { cwd: seed, env: { ...process.env, ...registryEnv }, stdio: 'pipe' })
  sh(seed, ['add', '-A'])
  sh(seed, ['commit', '-q', '-m', 'depend on mathlib'])
  const server = tempDir('loopgate-remote-')
  const bare = path.join(server, 'octo-org', 'octo-repo.git')
  sh(server, ['init', '-q', '--bare', '-b', 'main', bare])
  sh(seed, ['push', '-q', bare, 'main'])
  sh(seed, ['checkout', '-q', '-b', 'feature'])
  sh(seed, ['commit', '-q', '--allow-empty', '-m', 'a feature'])
  sh(seed, ['push', '-q', bare, 'feature'])
  return { server, bare }
}

/** The workspace as actions/checkout leaves it on `branch`, after the example's own `npm ci` steps. */
export function checkoutFor(bare: string, branch: string, steps: WorkflowStep[], env: Record<string, string>): string {
  const parent = tempDir('loopgate-checkout-')
  sh(parent, ['clone', '-q', '-b', branch, bare, 'ws'])
  const ws = path.join(parent, 'ws')
  for (const step of steps) {
    if (step.run?.trim() === 'npm ci') execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ws, env: { ...process.env, ...env }, stdio: 'pipe' })
  }
  return ws
}
