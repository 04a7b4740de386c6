import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parseIgnoreRule } from '../upgrade/ignore.js'
import { parseBoolean, parseChoice, parseList, type InputSource } from './values.js'
import { ConfigError } from '../errors.js'
import { TASKS, type TaskSettings } from '../settings.js'
import { taskSpec } from '../tasks/task-registry.js'

function readIgnore(inputs: InputSource): string[] {
  const ignore = parseList(inputs.raw('ignore'))
  for (const entry of ignore) {
    const rule = parseIgnoreRule(entry)
    if (typeof rule === 'string') throw new ConfigError('ignore', entry, `a package name (\`*\` wildcards allowed) or name@version-range (${rule})`)
  }
  return ignore
}

function readPromptFile(workspace: string, promptFile: string): string {
  const file = path.resolve(workspace, promptFile)
  if (!existsSync(file)) throw new ConfigError('prompt-file', promptFile, 'the path of an existing file')
  const prompt = readFileSync(file, 'utf8')
  if (prompt.trim() === '') throw new ConfigError('prompt-file', promptFile, 'a file holding the task (this one is empty)')
  return prompt
}

/** Exactly one of `prompt`, `prompt-file` and `task`; a prompt file is read from the workspace. */
export function readTaskSettings(inputs: InputSource, workspace: string): TaskSettings {
  const inlinePrompt = inputs.raw('prompt')
  const promptFile = inputs.optional('prompt-file')
  const taskRaw = inputs.optional('task')
  const task = taskRaw === undefined ? undefined : parseChoice('task', taskRaw, TASKS)
  if (task && (inlinePrompt.trim() !== '' || promptFile)) {
    throw new ConfigError('task', taskRaw ?? '', "either 'task' or 'prompt' / 'prompt-file', not both")
  }
  if (inlinePrompt.trim() !== '' && promptFile) {
    throw new ConfigError('prompt-file', promptFile, "either 'prompt' or 'prompt-file', not both")
  }
  if (!task && inlinePrompt.trim() === '' && !promptFile) {
    throw new ConfigError('prompt', '', "a task: set 'prompt', 'prompt-file' or 'task'")
  }
  const ignore = readIgnore(inputs)
  const allowMajor = parseBoolean('allow-major', inputs.get('allow-major'))
  const dependencyBots = parseList(inputs.get('dependency-bots'))
  const common = { ignore, allowMajor, dependencyBots }
  if (task) return { prompt: taskSpec(task).prompt ?? '', promptSource: `task: ${task}`, task, ...common }
  if (promptFile) return { prompt: readPromptFile(workspace, promptFile), promptSource: promptFile, ...common }
  return { prompt: inlinePrompt, promptSource: 'prompt', ...common }
}
