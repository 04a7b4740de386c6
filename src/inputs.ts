import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parsePriceTable } from './agents/pricing.js'
import { agentNames, agentSpec, credentialInputs, providerSpec, refusedArg, type AgentSpec } from './agents/registry.js'
import { modelFromArgs } from './agents/json-fields.js'
import { parseCommitAuthor, type CommitAuthor } from './git/author.js'
import type { LoopLimits } from './loop/types.js'
import { INPUT_SPECS } from './contract.js'
import { resolveProtectedPatterns } from './gate/protection-defaults.js'
import { parseIgnoreRule } from './upgrade/ignore.js'

/** An agent's name in the registry (src/agents/registry.ts). */
export type AgentKind = string
export type OnSuccess = 'pull-request' | 'push' | 'none'
export type OnEscalate = 'issue' | 'comment' | 'none'
export const TASKS = ['dependency-upgrade'] as const
export type Task = (typeof TASKS)[number]

/** Every input of action.yml, typed and validated. */
export interface Settings extends LoopLimits {
  agent: AgentKind
  prompt: string
  /** `prompt`, the prompt file path, or `task: <name>`. */
  promptSource: string
  /** A built-in task: loopgate writes the prompt itself at the start of the run. */
  task?: Task
  /** `ignore`: packages (or `name@range`) a dependency upgrade leaves alone. */
  ignore: string[]
  /** `allow-major`: a dependency upgrade may cross a major version. */
  allowMajor: boolean
  agentCommand?: string
  agentArgs: string[]
  agentVersion?: string
  agentEnv: string[]
  maxTurns: number
  gateCommand: string
  gateSetup?: string
  gateReport?: string
  gateTimeoutMs: number
  /** The resolved list: the defaults, the gate command's own files, then the input (`!` removes). */
  protectedPaths: string[]
  baseRef?: string
  featuresFile?: string
  progressFile: string
  loopId: string
  periodCeilingUsd?: number
  periodHours: number
  maxOpenPrs: number
  maxRunsPerPr: number
  onSuccess: OnSuccess
  onEscalate: OnEscalate
  escalateTo: string[]
  labels: string[]
  reviewers: string[]
  draft: boolean
  githubToken: string
  /** The configured agent's API key, from the input its registry entry names. */
  agentApiKey?: string
  /** Where the agent's model is served (the agent's default provider when not set); undefined for agents without providers. */
  provider?: string
  /** The `model` input, passed to the CLI and used for pricing. */
  model?: string
  /** The agent's credential inputs that are set (input name → value), e.g. `claude-code-oauth-token`. */
  agentCredentials: Record<string, string>
  /** `commit-author`; undefined: the token's own identity (see the publisher), else loopgate's local one. */
  commitAuthor?: CommitAuthor
  /** Logins allowed to start a loop besides those with write permission (`*`: anyone). */
  allowUsers: string[]
  /** Whether bot accounts (`…[bot]`) may start a loop. */
  allowBots: boolean
  priceTable?: string
  allowPullRequestTarget: boolean
  /** On comment events, the command that starts a run; the rest of the comment is the task. */
  commentCommand: string
  dryRun: boolean
  workspace: string
}

/** Reads one input by its action.yml name; returns '' when unset. */
export type InputReader = (name: string) => string

export class ConfigError extends Error {
  constructor(
    readonly input: string,
    readonly value: string,
    readonly accepted: string
  ) {
    super(`Input '${input}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`)
    this.name = 'ConfigError'
  }
}

/** Defaults: the seeds' starting numbers, from the one table the action and the CLI share. */
export const DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  INPUT_SPECS.filter((spec) => spec.default !== undefined && !spec.default.includes('${{')).map((spec) => [spec.name, spec.default as string])
)

export { DEFAULT_PROTECTED_PATHS } from './gate/protection-defaults.js'

interface NumberRule {
  min: number
  max: number
  integer: boolean
  exclusiveMin?: boolean
}

function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number'
  const low = rule.exclusiveMin ? `greater than ${rule.min}` : `from ${rule.min}`
  return `${kind} ${low} to ${rule.max}`
}

function parseNumber(name: string, raw: string, rule: NumberRule): number {
  const text = raw.trim()
  const value = text === '' ? NaN : Number(text)
  const ok =
    Number.isFinite(value) &&
    (!rule.integer || Number.isInteger(value)) &&
    (rule.exclusiveMin ? value > rule.min : value >= rule.min) &&
    value <= rule.max
  if (!ok) throw new ConfigError(name, raw, describeRule(rule))
  return value
}

function parseChoice<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  const value = raw.trim() as T
  if (!choices.includes(value)) throw new ConfigError(name, raw, choices.map((c) => `'${c}'`).join(', '))
  return value
}

function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase()
  if (['true', 'yes', '1'].includes(value)) return true
  if (['false', 'no', '0', ''].includes(value)) return false
  throw new ConfigError(name, raw, "'true' or 'false'")
}

/** A newline- or comma-separated list, blank entries dropped. */
export function parseList(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** Splits CLI arguments the way a shell would for simple quoting ('…', "…", backslash). */
export function splitArgs(raw: string): string[] {
  const args: string[] = []
  let current = ''
  let quote: '"' | "'" | null = null
  let has = false
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]
    if (quote) {
      if (ch === quote) quote = null
      else if (ch === '\\' && quote === '"' && i + 1 < raw.length) current += raw[++i]
      else current += ch
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      has = true
    } else if (ch === '\\' && i + 1 < raw.length) {
      current += raw[++i]
      has = true
    } else if (/\s/.test(ch)) {
      if (has) args.push(current)
      current = ''
      has = false
    } else {
      current += ch
      has = true
    }
  }
  if (quote) throw new ConfigError('agent-args', raw, 'arguments with balanced quotes')
  if (has) args.push(current)
  return args
}

/** Refuses `agent-args` that would undo a control, by the agent's registry entry. */
function checkAgentArgs(spec: AgentSpec, raw: string, args: string[]): void {
  const refused = refusedArg(spec, args)
  if (!refused) return
  const why =
    refused.why === 'fresh-process'
      ? `each call must be a fresh process (refused: ${spec.refusedArgs.join(', ')})`
      : 'loopgate sets it from its own inputs (max-turns, call-budget-usd)'
  throw new ConfigError('agent-args', raw, `extra CLI arguments without ${refused.arg}: ${why}`)
}

/** `provider` and `model`, checked against the agent's registry entry and its `agent-args`. */
function readProviderAndModel(
  spec: AgentSpec,
  read: InputReader,
  env: NodeJS.ProcessEnv,
  rawArgs: string,
  agentArgs: string[]
): { provider?: string; model?: string } {
  const providerRaw = read('provider').trim()
  const names = (spec.providers ?? []).map((p) => `'${p.name}'`)
  if (providerRaw !== '' && !providerSpec(spec, providerRaw)) {
    const accepted = names.length > 0 ? `for agent '${spec.name}': ${names.join(', ')}` : `nothing for agent '${spec.name}' (it brings its own command)`
    throw new ConfigError('provider', providerRaw, accepted)
  }
  const provider = providerSpec(spec, providerRaw === '' ? undefined : providerRaw)
  if (provider?.name === 'azure' && !env.AZURE_OPENAI_BASE_URL) {
    throw new ConfigError('provider', providerRaw, "'azure' with AZURE_OPENAI_BASE_URL set in the environment (the endpoint, e.g. https://<resource>.openai.azure.com/openai/v1)")
  }
  const modelRaw = read('model').trim()
  if (modelRaw === '') return { provider: provider?.name }
  if (!spec.modelFlag) throw new ConfigError('model', modelRaw, `nothing for agent '${spec.name}' (it brings its own command)`)
  if (!/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/.test(modelRaw)) throw new ConfigError('model', modelRaw, 'a model name (letters, digits and . _ : / @ + -)')
  if (modelFromArgs(agentArgs) !== undefined || agentArgs.some((a, i) => /^(-c|--config)$/.test(agentArgs[i - 1] ?? '') && /^model\s*=/.test(a))) {
    throw new ConfigError('agent-args', rawArgs, "extra CLI arguments without a model: the 'model' input names it")
  }
  return { provider: provider?.name, model: modelRaw }
}

const LOOP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** A loop id safe for branch names and cache keys, derived from workflow + job when not given. */
export function defaultLoopId(env: NodeJS.ProcessEnv): string {
  const raw = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join('-') || 'local'
  const slug = raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 100)
  return slug || 'local'
}

/**
 * Builds the Settings from the inputs. Throws ConfigError on the first bad value, before anything
 * is spent.
 */
export function readSettings(read: InputReader, env: NodeJS.ProcessEnv = process.env): Settings {
  const get = (name: string): string => {
    const value = read(name)
    if (value.trim() !== '') return value
    return DEFAULTS[name] ?? ''
  }
  const optional = (name: string): string | undefined => {
    const value = read(name).trim()
    return value === '' ? undefined : value
  }
  const workspace = path.resolve(env.GITHUB_WORKSPACE || process.cwd(), read('working-directory').trim())

  const agent = parseChoice('agent', get('agent'), agentNames())
  const spec = agentSpec(agent)

  const inlinePrompt = read('prompt')
  const promptFile = optional('prompt-file')
  const taskRaw = optional('task')
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
  let prompt = task ? 'Upgrade the next outdated dependency and make the protected gate pass with it.' : inlinePrompt
  let promptSource = task ? `task: ${task}` : 'prompt'
  const ignore = parseList(read('ignore'))
  for (const entry of ignore) {
    const rule = parseIgnoreRule(entry)
    if (typeof rule === 'string') throw new ConfigError('ignore', entry, `a package name (\`*\` wildcards allowed) or name@version-range (${rule})`)
  }
  if (promptFile) {
    const file = path.resolve(workspace, promptFile)
    if (!existsSync(file)) throw new ConfigError('prompt-file', promptFile, 'the path of an existing file')
    prompt = readFileSync(file, 'utf8')
    if (prompt.trim() === '') throw new ConfigError('prompt-file', promptFile, 'a file holding the task (this one is empty)')
    promptSource = promptFile
  }

  for (const required of spec.requiredInputs ?? []) {
    if (!optional(required.input)) throw new ConfigError(required.input, '', required.accepted)
  }
  const rawArgs = read('agent-args')
  const agentArgs = splitArgs(rawArgs)
  checkAgentArgs(spec, rawArgs, agentArgs)

  const maxIterations = parseNumber('max-iterations', get('max-iterations'), { min: 1, max: 1000, integer: true })
  const maxTurns = parseNumber('max-turns', get('max-turns'), { min: 1, max: 10000, integer: true })
  const callBudgetUsd = parseNumber('call-budget-usd', get('call-budget-usd'), {
    min: 0,
    max: 10000,
    integer: false,
    exclusiveMin: true
  })
  const spendCeilingUsd = parseNumber('spend-ceiling-usd', get('spend-ceiling-usd'), {
    min: 0,
    max: 100000,
    integer: false,
    exclusiveMin: true
  })
  if (!(spendCeilingUsd > callBudgetUsd)) {
    throw new ConfigError(
      'spend-ceiling-usd',
      read('spend-ceiling-usd') || DEFAULTS['spend-ceiling-usd'],
      `a number greater than call-budget-usd (${callBudgetUsd})`
    )
  }
  const minutes = { min: 0, max: 10080, integer: false, exclusiveMin: true }
  const callTimeoutMs = parseNumber('call-timeout-minutes', get('call-timeout-minutes'), minutes) * 60_000
  const timeLimitMs = parseNumber('time-limit-minutes', get('time-limit-minutes'), minutes) * 60_000
  const gateTimeoutMs = parseNumber('gate-timeout-minutes', get('gate-timeout-minutes'), minutes) * 60_000
  const noProgressLimit = parseNumber('no-progress-limit', get('no-progress-limit'), { min: 1, max: 1000, integer: true })
  const sameFailureLimit = parseNumber('same-failure-limit', get('same-failure-limit'), {
    min: 1,
    max: 1000,
    integer: true
  })

  const gateCommand = optional('gate-command')
  if (!gateCommand) throw new ConfigError('gate-command', '', 'the command that runs the protected tests, e.g. `npm test`')

  const gateSetup = optional('gate-setup')
  const protectedPaths = resolveProtectedPatterns(parseList(read('protected-paths')), [gateCommand, gateSetup])

  const periodRaw = optional('period-ceiling-usd')
  const periodCeilingUsd =
    periodRaw === undefined
      ? undefined
      : parseNumber('period-ceiling-usd', periodRaw, { min: 0, max: 1000000, integer: false, exclusiveMin: true })
  if (periodCeilingUsd !== undefined && periodCeilingUsd < callBudgetUsd) {
    throw new ConfigError('period-ceiling-usd', periodRaw ?? '', `a number not below call-budget-usd (${callBudgetUsd})`)
  }
  const periodHours = parseNumber('period-hours', get('period-hours'), { min: 0, max: 8760, integer: false, exclusiveMin: true })
  const maxOpenPrs = parseNumber('max-open-prs', get('max-open-prs'), { min: 1, max: 100, integer: true })
  const maxRunsPerPr = parseNumber('max-runs-per-pr', get('max-runs-per-pr'), { min: 1, max: 1000, integer: true })

  const loopId = optional('loop-id') ?? defaultLoopId(env)
  if (!LOOP_ID_PATTERN.test(loopId)) {
    throw new ConfigError('loop-id', loopId, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters')
  }
  const progressFile = get('progress-file').trim()
  if (path.isAbsolute(progressFile) || progressFile.split(/[\\/]/).includes('..')) {
    throw new ConfigError('progress-file', progressFile, 'a relative path inside the workspace')
  }
  const featuresFile = optional('features-file')
  if (featuresFile && (path.isAbsolute(featuresFile) || featuresFile.split(/[\\/]/).includes('..'))) {
    throw new ConfigError('features-file', featuresFile, 'a relative path inside the workspace')
  }

  const { provider, model } = readProviderAndModel(spec, read, env, rawArgs, agentArgs)
  const agentCredentials: Record<string, string> = {}
  for (const input of credentialInputs(spec)) {
    const value = optional(input)
    if (value !== undefined) agentCredentials[input] = value
  }
  const authorRaw = optional('commit-author')
  const commitAuthor = authorRaw === undefined ? undefined : parseCommitAuthor(authorRaw)
  if (authorRaw !== undefined && !commitAuthor) throw new ConfigError('commit-author', authorRaw, "a git identity 'Name <email>'")

  const commentCommand = get('comment-command').trim()
  if (!/^\S{2,40}$/.test(commentCommand)) {
    throw new ConfigError('comment-command', commentCommand, 'one word of 2 to 40 characters without spaces, e.g. /loopgate')
  }

  // the codex price override is validated before anything is spent
  const priceTable = optional('price-table')
  if (priceTable !== undefined) {
    const parsed = parsePriceTable(priceTable)
    if (typeof parsed === 'string') {
      throw new ConfigError('price-table', priceTable, `a JSON object {"<model>": {"input": n, "cachedInput": n, "output": n}} in USD per million tokens (${parsed})`)
    }
  }

  return {
    agent,
    prompt,
    promptSource,
    task,
    ignore,
    allowMajor: parseBoolean('allow-major', get('allow-major')),
    agentCommand: optional('agent-command'),
    agentArgs,
    agentVersion: optional('agent-version'),
    agentEnv: parseList(read('agent-env')),
    maxIterations,
    maxTurns,
    callBudgetUsd,
    spendCeilingUsd,
    callTimeoutMs,
    timeLimitMs,
    noProgressLimit,
    sameFailureLimit,
    gateCommand,
    gateSetup,
    gateReport: optional('gate-report'),
    gateTimeoutMs,
    protectedPaths,
    baseRef: optional('base-ref'),
    featuresFile,
    progressFile,
    loopId,
    periodCeilingUsd,
    periodHours,
    maxOpenPrs,
    maxRunsPerPr,
    onSuccess: parseChoice('on-success', get('on-success'), ['pull-request', 'push', 'none'] as const),
    onEscalate: parseChoice('on-escalate', get('on-escalate'), ['issue', 'comment', 'none'] as const),
    escalateTo: parseList(read('escalate-to')),
    labels: parseList(get('labels')),
    reviewers: parseList(read('reviewers')),
    draft: parseBoolean('draft', get('draft')),
    githubToken: read('github-token').trim(),
    agentApiKey: spec.apiKey ? optional(spec.apiKey.input) : undefined,
    provider,
    model,
    agentCredentials,
    commitAuthor,
    allowUsers: parseList(read('allow-users')),
    allowBots: parseBoolean('allow-bots', get('allow-bots')),
    priceTable,
    allowPullRequestTarget: parseBoolean('allow-pull-request-target', get('allow-pull-request-target')),
    commentCommand,
    dryRun: parseBoolean('dry-run', get('dry-run')),
    workspace
  }
}
