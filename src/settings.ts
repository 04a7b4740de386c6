// The settings every concern reads, as the inputs give them (parsed in src/inputs/).

/** The author and committer of loopgate's commits. */
export interface CommitAuthor {
  name: string
  email: string
}

/** `dependency-changes`: what the agent may change of the dependencies the gate installs. */
export const DEPENDENCY_CHANGES = ['refuse', 'registry'] as const
export type DependencyChanges = (typeof DEPENDENCY_CHANGES)[number]

/** The counted limits of one run, as the inputs give them. */
export interface LoopLimits {
  maxIterations: number
  callBudgetUsd: number
  spendCeilingUsd: number
  callTimeoutMs: number
  timeLimitMs: number
  noProgressLimit: number
  sameFailureLimit: number
}

export const TASKS = ['dependency-upgrade', 'fix-dependency-pr'] as const
export type Task = (typeof TASKS)[number]

/** What the loop is asked to do: a prompt, a prompt file or a built-in task. */
export interface TaskSettings {
  prompt: string
  /** `prompt`, the prompt file path, or `task: <name>`. */
  promptSource: string
  /** A built-in task: loopgate writes the prompt itself at the start of the run. */
  task?: Task
  /** `ignore`: packages (or `name@range`) a dependency upgrade leaves alone. */
  ignore: string[]
  /** `allow-major`: a dependency upgrade may cross a major version. */
  allowMajor: boolean
  /** `dependency-bots`: the pull request authors `task: fix-dependency-pr` acts for. */
  dependencyBots: string[]
}

/** The agent's part of the settings: which agent, how it is called, its model and credentials. */
export interface AgentSettings {
  agent: string
  agentCommand?: string
  agentArgs: string[]
  agentVersion?: string
  agentEnv: string[]
  /** The configured agent's API key, from the input its registry entry names. */
  agentApiKey?: string
  /** Where the agent's model is served (the agent's default provider when not set); undefined for agents without providers. */
  provider?: string
  /** The `model` input, passed to the CLI and used for pricing. */
  model?: string
  /** The agent's credential inputs that are set (input name → value), e.g. `claude-code-oauth-token`. */
  agentCredentials: Record<string, string>
  priceTable?: string
}

/** An agent's name in the registry (src/agents/agent-registry.ts). */
type AgentKind = string
export const ON_SUCCESS = ['pull-request', 'push', 'none'] as const
type OnSuccess = (typeof ON_SUCCESS)[number]
export const ON_ESCALATE = ['issue', 'comment', 'none'] as const
type OnEscalate = (typeof ON_ESCALATE)[number]

/** The loop's limits, counted by loopgate (the per-call turn cap with them). */
export interface LoopSettings extends LoopLimits {
  maxTurns: number
}

/** The protected gate: its command, set-up, report, timeout, protected paths and base. */
export interface GateSettings {
  gateCommand: string
  gateSetup?: string
  gateReport?: string
  gateTimeoutMs: number
  /** The resolved list: the defaults, the gate command's own files, then the input (`!` removes). */
  protectedPaths: string[]
  baseRef?: string
  featuresFile?: string
  progressFile: string
  /** `dependency-changes`: what the agent may change of the dependencies the gate installs. */
  dependencyChanges: DependencyChanges
  /** `allowed-hosts` as given (`['*']`: the whole network); absent or empty: the default list. */
  allowedHosts?: string[]
  /** `gate-allowed-hosts` as given; absent or empty: the gate is offline but for the configured registries. */
  gateAllowedHosts?: string[]
}

/** The loop's identity and what it keeps across runs. */
export interface StateSettings {
  loopId: string
  /** False: start from the base even when the last run left unfinished work. */
  resume: boolean
  periodCeilingUsd?: number
  periodHours: number
  maxRunsPerPr: number
}

/** Where the run's work goes, who may start it, and as whom loopgate commits. */
export interface PublishSettings {
  maxOpenPrs: number
  onSuccess: OnSuccess
  onEscalate: OnEscalate
  escalateTo: string[]
  labels: string[]
  reviewers: string[]
  draft: boolean
  githubToken: string
  /** `commit-author`; undefined: the token's own identity (see the publisher), else loopgate's local one. */
  commitAuthor?: CommitAuthor
  /** `sign-commits`: commits created through the GitHub API (signed by GitHub) where the token can have them signed. */
  signCommits: boolean
  /** Logins allowed to start a loop besides those with write permission (`*`: anyone). */
  allowUsers: string[]
  /** Whether bot accounts (`…[bot]`) may start a loop. */
  allowBots: boolean
  allowPullRequestTarget: boolean
  /** On comment events, the command that starts a run; the rest of the comment is the task. */
  commentCommand: string
  dryRun: boolean
}

/** The folder the run works in (`working-directory`, resolved). */
export interface WorkspaceSettings {
  /** The top folder of the git repository. */
  workspace: string
  /** The folder inside it the agent and the gate command work in (one package of a monorepo), relative; `''` for the top. */
  packageDir?: string
}

/**
 * Every input of action.yml, typed and validated: the task, the agent, the loop's limits, the gate,
 * the state and publishing (each read by its own parser in src/inputs). Only the composition roots hold
 * all of it; every other module takes the concerns it reads.
 */
export interface Settings extends TaskSettings, AgentSettings, LoopSettings, GateSettings, StateSettings, PublishSettings, WorkspaceSettings {
  agent: AgentKind
}

/** Reads one input by its action.yml name; returns '' when unset. */
export type InputReader = (name: string) => string
