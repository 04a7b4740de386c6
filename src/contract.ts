// Generated from action.yml by scripts/generate-contract.mjs (npm run build): do not edit.
// The action inputs and outputs; the CLI reads its options and --help from here.

export interface InputSpec {
  name: string
  description: string
  default?: string
  required?: boolean
}

export interface OutputSpec {
  name: string
  description: string
}

export const INPUT_SPECS: readonly InputSpec[] = [
  { name: 'agent', description: "The agent: 'claude' (Claude Code `claude -p`), 'codex' (`codex exec`) or 'command' (any shell command).", default: 'claude' },
  { name: 'prompt', description: 'The task. Set this, `prompt-file` or `task`.' },
  { name: 'prompt-file', description: 'A file in the workspace holding the task. Set this, `prompt` or `task`.' },
  {
    name: 'task',
    description:
      "A built-in task instead of a prompt: 'dependency-upgrade' (loopgate picks the next outdated dependency, bumps the manifest and lockfile itself as its own commit, and asks the agent only to make the gate pass), or 'fix-dependency-pr' (on a failed `workflow_run` or `check_suite` of a same-repository pull request opened by one of `dependency-bots`, loopgate fetches the pull request's head, makes the gate pass without touching the bot's bump, pushes the fix to the pull request's branch and comments)."
  },
  {
    name: 'dependency-bots',
    description: 'For `task: fix-dependency-pr`: the pull request authors it acts for (newline or comma list).',
    default: 'dependabot[bot], renovate[bot]'
  },
  {
    name: 'ignore',
    description:
      'For `task: dependency-upgrade`: packages to leave alone (newline or comma list): a name (`*` matches any characters), or `name@version` / `name@range` to skip only those versions.'
  },
  { name: 'allow-major', description: 'For `task: dependency-upgrade`: also upgrade across a major version (held by default).', default: 'false' },
  {
    name: 'working-directory',
    description:
      'The folder the loop works in, relative to the workspace (defaults to the workspace itself): a git repository, or a folder inside one (one package of a monorepo), where the agent and the gate command then work; protected paths and dependency files are judged for the whole repository, and `gate-setup` runs at its top.'
  },
  {
    name: 'agent-command',
    description:
      'For `agent: command`: the shell command run once per iteration (prompt on stdin and in $LOOPGATE_PROMPT_FILE; cost may be reported as {"cost_usd": n} in $LOOPGATE_COST_FILE).'
  },
  {
    name: 'agent-args',
    description:
      'Extra CLI arguments (e.g. `--model ...`). Flags that would undo a control (--resume, --continue, --bare, a second --max-turns or --max-budget-usd) are refused.'
  },
  {
    name: 'agent-version',
    description: 'The npm version of the agent CLI installed when it is not on PATH (defaults to the version loopgate is tested with).'
  },
  {
    name: 'agent-env',
    description: 'Extra environment variable names (newline or comma list) passed to the agent and the gate. Tokens and runner internals are never passed.'
  },
  {
    name: 'allowed-hosts',
    description:
      "Where the agent's processes may connect, through loopgate's forward proxy only. A newline or comma list of exact host names, `*.suffix` patterns and addresses, each optionally with `:port` (a loopback `127.0.0.1:PORT` is relayed as it is). Each call runs in a private network namespace with loopback only: DNS, raw sockets and every other address fail, and every refusal is listed. Default: the model API the metering proxy serves, the package registries of the project's ecosystems and the registries the run's environment configures. `'*'` gives the runner's whole network (said in the summary)."
  },
  {
    name: 'gate-allowed-hosts',
    description:
      "Where the gate's processes may connect (gate-setup and the gate command), as in `allowed-hosts`. Default: none for the tests; with `gate-setup`, the registries its install needs (the project's ecosystems', the package indexes the base's pyproject.toml and requirements files declare, and those the workflow's environment configures: npm_config_registry, PIP_INDEX_URL, ...). The gate is otherwise offline. `'*'` gives the runner's whole network."
  },
  { name: 'max-iterations', description: 'Outer-loop cap (an integer from 1; never unlimited).', default: '20' },
  { name: 'max-turns', description: 'Per-call turn cap, passed to the CLI and counted by loopgate from the event stream.', default: '40' },
  {
    name: 'call-budget-usd',
    description: 'Per-call budget in USD, passed to the CLI where it has one; a call with no cost report is charged this much.',
    default: '4'
  },
  {
    name: 'spend-ceiling-usd',
    description: 'Cumulative spend ceiling for this run (must be greater than call-budget-usd). A call starts only while spent + call-budget-usd ≤ ceiling.',
    default: '40'
  },
  { name: 'call-timeout-minutes', description: "Per-call wall clock; the agent's whole process group is killed when it runs out.", default: '45' },
  { name: 'time-limit-minutes', description: "Whole-run wall clock, so the state is saved before the job's own timeout.", default: '300' },
  { name: 'gate-timeout-minutes', description: 'Wall clock of one gate run; a gate that times out fails.', default: '30' },
  {
    name: 'no-progress-limit',
    description: 'Stop after this many iterations in a row whose diff is empty (progress and features files excluded).',
    default: '3'
  },
  { name: 'same-failure-limit', description: 'Stop after the same gate failure fingerprint this many times in a row.', default: '2' },
  { name: 'gate-command', description: 'The command that runs the protected tests, e.g. `npm test` or `pytest tests`. Required.', required: true },
  { name: 'gate-setup', description: 'A command run before each gate in its clean checkout (e.g. `npm ci --offline`).' },
  {
    name: 'gate-report',
    description:
      'Path of a report written by the gate command: JUnit XML, a jest / vitest JSON report, or TAP. When set it is read instead of the console output. `exit-code`: for a gate with no countable runner (`make test`, a shell script), judge by the exit code alone; no test count or test id is then checked, and the summary and the pull request say so.'
  },
  {
    name: 'protected-paths',
    description:
      'Globs (newline or comma list) added to the protected defaults: test files at any depth, test-runner and package-manager configuration, `.github/workflows` and `.github/actions`, and the task files and scripts `gate-command` and `gate-setup` name. `!pattern` removes the default spelled exactly so, or else unprotects the paths it matches. package.json and pyproject.toml are protected except for their dependency and version keys. Changes to protected paths are rejected and restored from the base ref.'
  },
  {
    name: 'dependency-changes',
    description:
      'What the agent may change of the dependencies the gate installs. `refuse`: any change to a dependency spec (package.json and pyproject.toml dependency tables) or a lockfile (package-lock.json, yarn.lock, pnpm-lock.yaml, requirements*.txt, uv.lock, poetry.lock, Pipfile.lock, …), and any committed dependency folder (`node_modules`, `site-packages`), is tampering. `registry`: name@version changes from the package registry are allowed (integrity checked, install scripts off), never a path, tarball, wheel, URL, git or alias spec, nor the test runner, its plugins and the assertion libraries the gate loads.',
    default: 'refuse'
  },
  { name: 'base-ref', description: 'Where the protected tests come from. Defaults to the PR base, else the default branch.' },
  {
    name: 'features-file',
    description:
      "Optional flip-only checklist (a JSON list; `passes` may only go false→true, and a flip counts only when the gate's `gate-report` lists its `test` id as passed)."
  },
  {
    name: 'progress-file',
    description: 'Notes carried between fresh-context iterations; loopgate appends one line per iteration, the last naming the stop reason.',
    default: '.loopgate/progress.md'
  },
  { name: 'loop-id', description: 'Names the state key, the work branch `loopgate/<loop-id>` and the dedupe markers. Defaults to workflow + job.' },
  {
    name: 'resume',
    description:
      "Resume the loop's unfinished work (after an escalation or a cap), said first in the log with its branch. `false` starts from the base (the CLI's `--fresh`).",
    default: 'true'
  },
  {
    name: 'period-ceiling-usd',
    description:
      "Rolling spend ceiling across runs over `period-hours`: the sum of every run's own charges entry in the Actions cache, read from the cache list (the job needs `actions: read`; an unreadable window counts as full). None by default."
  },
  { name: 'period-hours', description: 'The window of `period-ceiling-usd`, in hours.', default: '24' },
  { name: 'max-open-prs', description: 'Review capacity; with this many open loop PRs the run stops before spending.', default: '1' },
  { name: 'max-runs-per-pr', description: 'For PR loops, the most runs on one pull request before the loop stops.', default: '5' },
  {
    name: 'price-table',
    description:
      'Price overrides over the built-in table, for calls metered at the wire and for codex off it. JSON: {"<model>": {"input": usd-per-Mtok, "cachedInput": ..., "cacheWrite": ..., "output": ...}}.'
  },
  { name: 'on-success', description: "'pull-request', 'push' (PR loops) or 'none'.", default: 'pull-request' },
  { name: 'on-escalate', description: "'issue', 'comment' (PR loops) or 'none'.", default: 'issue' },
  { name: 'escalate-to', description: 'Assignees of escalation issues (newline or comma list).' },
  { name: 'labels', description: 'Labels for loop PRs and escalation issues (newline or comma list).', default: 'loopgate' },
  { name: 'reviewers', description: 'Reviewers requested on loop PRs (newline or comma list).' },
  { name: 'draft', description: 'Open loop pull requests as drafts.', default: 'false' },
  { name: 'allow-pull-request-target', description: 'Allow running on `pull_request_target` (refused by default).', default: 'false' },
  {
    name: 'comment-command',
    description:
      "On comment events (a PR comment, review or review comment; a reply on the loop's escalation issue), the command that starts a run, from users with write permission; the rest of the comment is the task.",
    default: '/loopgate'
  },
  { name: 'github-token', description: 'Used by loopgate only, never visible to the agent.', default: '${{ github.token }}' },
  { name: 'anthropic-api-key', description: 'Passed to the Claude Code process only.' },
  {
    name: 'claude-code-oauth-token',
    description: 'A Claude subscription token (`claude setup-token`), passed to the Claude Code process only, as CLAUDE_CODE_OAUTH_TOKEN.'
  },
  { name: 'openai-api-key', description: 'Passed to the Codex process only (as AZURE_OPENAI_API_KEY with `provider: azure`).' },
  {
    name: 'provider',
    description:
      "Where the agent's model is served: 'anthropic' (default), 'bedrock' or 'vertex' for Claude; 'openai' (default) or 'azure' for Codex. Only that provider's documented variables reach the agent (e.g. the AWS credentials aws-actions/configure-aws-credentials exports), never the gate."
  },
  {
    name: 'model',
    description: "The model, passed as --model to the CLI and used by the Codex pricing (then `agent-args` may not name one). Defaults to the CLI's own."
  },
  {
    name: 'commit-author',
    description:
      "Author and committer of loopgate's commits, 'Name <email>'. Defaults to the token's own identity (github-actions[bot] for the workflow's GITHUB_TOKEN)."
  },
  {
    name: 'sign-commits',
    description:
      "Create loopgate's commits (the loop branch, the WIP branch, a pull request's branch) through the GitHub API, so GitHub signs them and they show Verified. Applies where GitHub signs the API's commits: an installation token (GITHUB_TOKEN, a GitHub App's) and no `commit-author`; elsewhere, and with `false`, loopgate pushes with git.",
    default: 'true'
  },
  {
    name: 'allow-users',
    description:
      'Logins (newline or comma list) that may start a loop besides users with write permission on the repository; `*` allows anyone. A run caused by anyone else is skipped.'
  },
  { name: 'allow-bots', description: 'Let bot accounts (`…[bot]`) start a loop without the write-permission check.', default: 'false' },
  { name: 'dry-run', description: 'Run the loop, write the PR / issue bodies to files, publish nothing.', default: 'false' }
]

export const OUTPUT_SPECS: readonly OutputSpec[] = [
  { name: 'outcome', description: "'verified', 'escalated', 'stopped' or 'skipped'." },
  {
    name: 'stop-reason',
    description:
      'One of: verified, max-iterations, spend-ceiling, period-ceiling, time-limit, no-progress, same-failure, protected-tampering, agent-failure, cancelled, review-capacity, nothing-to-do, state-corrupt, config-error, gate-broken, agent-gave-up, provider-unavailable, flaky-tests.'
  },
  { name: 'iterations', description: 'Iterations run, counted by loopgate.' },
  { name: 'spend-usd', description: 'Spend charged to the ledger, counted by loopgate.' },
  { name: 'pull-request-url', description: 'The pull request opened or updated.' },
  { name: 'issue-url', description: 'The escalation issue opened or commented on.' },
  { name: 'log-file', description: 'The attempt log (JSON Lines).' }
]

export const OUTPUT_NAMES = ['outcome', 'stop-reason', 'iterations', 'spend-usd', 'pull-request-url', 'issue-url', 'log-file'] as const
