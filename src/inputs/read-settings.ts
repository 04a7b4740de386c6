import { existsSync } from 'node:fs'
import path from 'node:path'
import { parseCommitAuthor } from '../git/author.js'
import { INPUT_SPECS } from '../contract.js'
import { resolveProtectedPatterns } from '../gate/protection/protection-defaults.js'
import {
  DEPENDENCY_CHANGES,
  ON_ESCALATE,
  ON_SUCCESS,
  type GateSettings,
  type InputReader,
  type LoopSettings,
  type PublishSettings,
  type Settings,
  type StateSettings
} from '../settings.js'
import { readAgentSettings, readAgentSpec } from './agent.js'
import { readTaskSettings } from './task.js'
import { forBotPullRequests } from '../bot-pr/bot-settings.js'
import { isRelativeInside, parseBoolean, parseChoice, parseList, parseNumber, type InputSource, type NumberRule } from './values.js'
import { ConfigError } from '../errors.js'
import { badHostEntry } from '../isolation/allowed-hosts.js'

/** Defaults: the seeds' starting numbers, from the one table the action and the CLI share. */
const DEFAULTS: Readonly<Record<string, string>> = Object.fromEntries(
  INPUT_SPECS.filter((spec) => spec.default !== undefined && !spec.default.includes('${{')).map((spec) => [spec.name, spec.default as string])
)

const LOOP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** A loop id safe for branch names and cache keys, derived from workflow + job when not given. */
function defaultLoopId(env: NodeJS.ProcessEnv): string {
  const raw = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join('-') || 'local'
  const slug = raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '')
    .slice(0, 100)
  return slug || 'local'
}

function inputSource(read: InputReader, env: NodeJS.ProcessEnv): InputSource {
  return {
    raw: read,
    get: (name) => (read(name).trim() !== '' ? read(name) : (DEFAULTS[name] ?? '')),
    optional: (name) => read(name).trim() || undefined,
    env
  }
}

const MINUTES = { min: 0, max: 10080, integer: false, exclusiveMin: true }

function readLoopSettings(inputs: InputSource): LoopSettings {
  const number = (name: string, rule: NumberRule) => parseNumber(name, inputs.get(name), rule)
  const maxIterations = number('max-iterations', { min: 1, max: 1000, integer: true })
  const maxTurns = number('max-turns', { min: 1, max: 10000, integer: true })
  const callBudgetUsd = number('call-budget-usd', { min: 0, max: 10000, integer: false, exclusiveMin: true })
  const spendCeilingUsd = number('spend-ceiling-usd', { min: 0, max: 100000, integer: false, exclusiveMin: true })
  if (!(spendCeilingUsd > callBudgetUsd)) {
    throw new ConfigError(
      'spend-ceiling-usd',
      inputs.raw('spend-ceiling-usd') || DEFAULTS['spend-ceiling-usd'],
      `a number greater than call-budget-usd (${callBudgetUsd})`
    )
  }
  return {
    maxIterations,
    maxTurns,
    callBudgetUsd,
    spendCeilingUsd,
    callTimeoutMs: parseNumber('call-timeout-minutes', inputs.get('call-timeout-minutes'), MINUTES) * 60_000,
    timeLimitMs: parseNumber('time-limit-minutes', inputs.get('time-limit-minutes'), MINUTES) * 60_000,
    noProgressLimit: number('no-progress-limit', { min: 1, max: 1000, integer: true }),
    sameFailureLimit: number('same-failure-limit', { min: 1, max: 1000, integer: true })
  }
}

function relativePath(name: string, value: string): string {
  if (!isRelativeInside(value)) throw new ConfigError(name, value, 'a relative path inside the workspace')
  return value
}

/** An allow-list input: host entries, or `*` alone. */
function hostList(name: string, raw: string): string[] {
  const entries = parseList(raw)
  if (entries.includes('*') && entries.length > 1) throw new ConfigError(name, raw.trim(), '`*` alone (the whole network), or a list of hosts without `*`')
  for (const entry of entries) {
    const why = entry === '*' ? null : badHostEntry(entry)
    if (why) throw new ConfigError(name, entry, why)
  }
  return entries
}

function readGateSettings(inputs: InputSource): GateSettings {
  const gateTimeoutMs = parseNumber('gate-timeout-minutes', inputs.get('gate-timeout-minutes'), MINUTES) * 60_000
  const gateCommand = inputs.optional('gate-command')
  if (!gateCommand) throw new ConfigError('gate-command', '', 'the command that runs the protected tests, e.g. `npm test`')
  const gateSetup = inputs.optional('gate-setup')
  const featuresFile = inputs.optional('features-file')
  return {
    gateCommand,
    gateSetup,
    gateReport: inputs.optional('gate-report'),
    gateTimeoutMs,
    protectedPaths: resolveProtectedPatterns(parseList(inputs.raw('protected-paths')), [gateCommand, gateSetup]),
    baseRef: inputs.optional('base-ref'),
    dependencyChanges: parseChoice('dependency-changes', inputs.get('dependency-changes').trim(), DEPENDENCY_CHANGES),
    allowedHosts: hostList('allowed-hosts', inputs.raw('allowed-hosts')),
    gateAllowedHosts: hostList('gate-allowed-hosts', inputs.raw('gate-allowed-hosts')),
    progressFile: relativePath('progress-file', inputs.get('progress-file').trim()),
    featuresFile: featuresFile && relativePath('features-file', featuresFile)
  }
}

/** `callBudgetUsd`: a period ceiling below one call could never admit a call. */
function readStateSettings(inputs: InputSource, callBudgetUsd: number): StateSettings {
  const periodRaw = inputs.optional('period-ceiling-usd')
  const periodCeilingUsd =
    periodRaw === undefined ? undefined : parseNumber('period-ceiling-usd', periodRaw, { min: 0, max: 1000000, integer: false, exclusiveMin: true })
  if (periodCeilingUsd !== undefined && periodCeilingUsd < callBudgetUsd) {
    throw new ConfigError('period-ceiling-usd', periodRaw ?? '', `a number not below call-budget-usd (${callBudgetUsd})`)
  }
  const loopId = inputs.optional('loop-id') ?? defaultLoopId(inputs.env)
  if (!LOOP_ID_PATTERN.test(loopId)) {
    throw new ConfigError('loop-id', loopId, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters')
  }
  return {
    loopId,
    resume: parseBoolean('resume', inputs.get('resume')),
    periodCeilingUsd,
    periodHours: parseNumber('period-hours', inputs.get('period-hours'), { min: 0, max: 8760, integer: false, exclusiveMin: true }),
    maxRunsPerPr: parseNumber('max-runs-per-pr', inputs.get('max-runs-per-pr'), { min: 1, max: 1000, integer: true })
  }
}

function readPublishSettings(inputs: InputSource): PublishSettings {
  const authorRaw = inputs.optional('commit-author')
  const commitAuthor = authorRaw === undefined ? undefined : parseCommitAuthor(authorRaw)
  if (authorRaw !== undefined && !commitAuthor) throw new ConfigError('commit-author', authorRaw, "a git identity 'Name <email>'")
  const commentCommand = inputs.get('comment-command').trim()
  if (!/^\S{2,40}$/.test(commentCommand)) {
    throw new ConfigError('comment-command', commentCommand, 'one word of 2 to 40 characters without spaces, e.g. /loopgate')
  }
  const flag = (name: string) => parseBoolean(name, inputs.get(name))
  return {
    maxOpenPrs: parseNumber('max-open-prs', inputs.get('max-open-prs'), { min: 1, max: 100, integer: true }),
    onSuccess: parseChoice('on-success', inputs.get('on-success'), ON_SUCCESS),
    onEscalate: parseChoice('on-escalate', inputs.get('on-escalate'), ON_ESCALATE),
    escalateTo: parseList(inputs.raw('escalate-to')),
    labels: parseList(inputs.get('labels')),
    reviewers: parseList(inputs.raw('reviewers')),
    draft: flag('draft'),
    githubToken: inputs.raw('github-token').trim(),
    commitAuthor,
    signCommits: flag('sign-commits'),
    allowUsers: parseList(inputs.raw('allow-users')),
    allowBots: flag('allow-bots'),
    allowPullRequestTarget: flag('allow-pull-request-target'),
    commentCommand,
    dryRun: flag('dry-run')
  }
}

/**
 * `working-directory` under `root`: the top folder of its git repository (the nearest folder at or
 * above it with a `.git`, never above `root`) and the folder inside it the loop works in, for one
 * package of a monorepo. Without a `.git` on the way, the folder itself (the run says why it is none).
 */
function repositoryFolders(root: string, workingDirectory: string): { workspace: string; packageDir: string } {
  const folder = path.resolve(root, workingDirectory)
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const inside = path.relative(root, dir)
    if (inside.startsWith('..') || path.isAbsolute(inside)) break
    if (existsSync(path.join(dir, '.git'))) return { workspace: dir, packageDir: path.relative(dir, folder) }
    if (dir === path.dirname(dir)) break
  }
  return { workspace: folder, packageDir: '' }
}

/**
 * Builds the Settings from the inputs, one concern at a time. Throws ConfigError on the first bad
 * value, before anything is spent.
 */
export function readSettings(read: InputReader, env: NodeJS.ProcessEnv = process.env): Settings {
  const inputs = inputSource(read, env)
  const { workspace, packageDir } = repositoryFolders(path.resolve(env.GITHUB_WORKSPACE || process.cwd()), read('working-directory').trim())
  if (packageDir && !existsSync(path.join(workspace, packageDir))) {
    throw new ConfigError('working-directory', packageDir, 'a folder of the repository (the package the loop works in), or its top folder')
  }
  const spec = readAgentSpec(inputs)
  const task = readTaskSettings(inputs, workspace)
  const agent = readAgentSettings(spec, inputs)
  const loop = readLoopSettings(inputs)
  const gate = readGateSettings(inputs)
  const state = readStateSettings(inputs, loop.callBudgetUsd)
  const publish = readPublishSettings(inputs)
  return forBotPullRequests({ ...task, task: task.task, ...agent, ...loop, ...gate, ...state, ...publish, workspace, packageDir })
}
