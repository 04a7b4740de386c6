import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  ConfigError,
  TEST_RUNNERS,
  agentNames,
  agentSpec,
  badHostEntry,
  credentialInputs,
  forBotPullRequests,
  gateCommandPatterns,
  modelFromArgs,
  parseCommitAuthor,
  parseIgnoreRule,
  parsePriceTable,
  providerSpec,
  refusedArg,
  taskSpec
} from "./chunk-UOEWHHCT.js";

// src/inputs/values.ts
import path from "node:path";
function describeRule(rule) {
  const kind = rule.integer ? "an integer" : "a number";
  const low = rule.exclusiveMin ? `greater than ${rule.min}` : `from ${rule.min}`;
  return `${kind} ${low} to ${rule.max}`;
}
function parseNumber(name, raw, rule) {
  const text = raw.trim();
  const value = text === "" ? NaN : Number(text);
  const ok = Number.isFinite(value) && (!rule.integer || Number.isInteger(value)) && (rule.exclusiveMin ? value > rule.min : value >= rule.min) && value <= rule.max;
  if (!ok) throw new ConfigError(name, raw, describeRule(rule));
  return value;
}
function parseChoice(name, raw, choices) {
  const value = raw.trim();
  if (!choices.includes(value)) throw new ConfigError(name, raw, choices.map((c) => `'${c}'`).join(", "));
  return value;
}
var TRUE_WORDS = ["true", "yes", "1"];
var FALSE_WORDS = ["false", "no", "0", ""];
function parseBoolean(name, raw) {
  const value = raw.trim().toLowerCase();
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  throw new ConfigError(name, raw, "'true' or 'false'");
}
function isTrueInput(raw) {
  return TRUE_WORDS.includes(raw.trim().toLowerCase());
}
function parseList(raw) {
  return raw.split(/[\n,]/).map((s) => s.trim()).filter((s) => s.length > 0);
}
function splitArgs(raw) {
  const args = [];
  let current = "";
  let quote = null;
  let has = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"' && i + 1 < raw.length) current += raw[++i];
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === "\\" && i + 1 < raw.length) {
      current += raw[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) args.push(current);
      current = "";
      has = false;
    } else {
      current += ch;
      has = true;
    }
  }
  if (quote) throw new ConfigError("agent-args", raw, "arguments with balanced quotes");
  if (has) args.push(current);
  return args;
}
function isRelativeInside(p) {
  return !path.isAbsolute(p) && !p.split(/[\\/]/).includes("..");
}

// src/inputs/read-settings.ts
import { existsSync as existsSync2 } from "node:fs";
import path3 from "node:path";

// src/contract.ts
var INPUT_SPECS = [
  { name: "agent", description: "The agent: 'claude' (Claude Code `claude -p`), 'codex' (`codex exec`) or 'command' (any shell command).", default: "claude" },
  { name: "prompt", description: "The task. Set this, `prompt-file` or `task`." },
  { name: "prompt-file", description: "A file in the workspace holding the task. Set this, `prompt` or `task`." },
  {
    name: "task",
    description: "A built-in task instead of a prompt: 'dependency-upgrade' (loopgate picks the next outdated dependency, bumps the manifest and lockfile itself as its own commit, and asks the agent only to make the gate pass), or 'fix-dependency-pr' (on a failed `workflow_run` or `check_suite` of a same-repository pull request opened by one of `dependency-bots`, loopgate fetches the pull request's head, makes the gate pass without touching the bot's bump, pushes the fix to the pull request's branch and comments)."
  },
  {
    name: "dependency-bots",
    description: "For `task: fix-dependency-pr`: the pull request authors it acts for (newline or comma list).",
    default: "dependabot[bot], renovate[bot]"
  },
  {
    name: "ignore",
    description: "For `task: dependency-upgrade`: packages to leave alone (newline or comma list): a name (`*` matches any characters), or `name@version` / `name@range` to skip only those versions."
  },
  { name: "allow-major", description: "For `task: dependency-upgrade`: also upgrade across a major version (held by default).", default: "false" },
  {
    name: "working-directory",
    description: "The folder the loop works in, relative to the workspace (defaults to the workspace itself): a git repository, or a folder inside one (one package of a monorepo), where the agent and the gate command then work; protected paths and dependency files are judged for the whole repository, and `gate-setup` runs at its top."
  },
  {
    name: "agent-command",
    description: 'For `agent: command`: the shell command run once per iteration (prompt on stdin and in $LOOPGATE_PROMPT_FILE; cost may be reported as {"cost_usd": n} in $LOOPGATE_COST_FILE).'
  },
  {
    name: "agent-args",
    description: "Extra CLI arguments (e.g. `--model ...`). Flags that would undo a control (--resume, --continue, --bare, a second --max-turns or --max-budget-usd) are refused."
  },
  {
    name: "agent-version",
    description: "The npm version of the agent CLI installed when it is not on PATH (defaults to the version loopgate is tested with)."
  },
  {
    name: "agent-env",
    description: "Extra environment variable names (newline or comma list) passed to the agent and the gate. Tokens and runner internals are never passed."
  },
  {
    name: "allowed-hosts",
    description: "Where the agent's processes may connect, through loopgate's forward proxy only. A newline or comma list of exact host names, `*.suffix` patterns and addresses, each optionally with `:port` (a loopback `127.0.0.1:PORT` is relayed as it is). Each call runs in a private network namespace with loopback only: DNS, raw sockets and every other address fail, and every refusal is listed. Default: the model API the metering proxy serves, the package registries of the project's ecosystems and the registries the run's environment configures. `'*'` gives the runner's whole network (said in the summary)."
  },
  {
    name: "gate-allowed-hosts",
    description: "Where the gate's processes may connect (gate-setup and the gate command), as in `allowed-hosts`. Default: none for the tests; with `gate-setup`, the registries its install needs (the project's ecosystems', the package indexes the base's pyproject.toml and requirements files declare, and those the workflow's environment configures: npm_config_registry, PIP_INDEX_URL, ...). The gate is otherwise offline. `'*'` gives the runner's whole network."
  },
  { name: "max-iterations", description: "Outer-loop cap (an integer from 1; never unlimited).", default: "20" },
  { name: "max-turns", description: "Per-call turn cap, passed to the CLI and counted by loopgate from the event stream.", default: "40" },
  {
    name: "call-budget-usd",
    description: "Per-call budget in USD, passed to the CLI where it has one; a call with no cost report is charged this much.",
    default: "4"
  },
  {
    name: "spend-ceiling-usd",
    description: "Cumulative spend ceiling for this run (must be greater than call-budget-usd). A call starts only while spent + call-budget-usd \u2264 ceiling.",
    default: "40"
  },
  { name: "call-timeout-minutes", description: "Per-call wall clock; the agent's whole process group is killed when it runs out.", default: "45" },
  { name: "time-limit-minutes", description: "Whole-run wall clock, so the state is saved before the job's own timeout.", default: "300" },
  { name: "gate-timeout-minutes", description: "Wall clock of one gate run; a gate that times out fails.", default: "30" },
  {
    name: "no-progress-limit",
    description: "Stop after this many iterations in a row whose diff is empty (progress and features files excluded).",
    default: "3"
  },
  { name: "same-failure-limit", description: "Stop after the same gate failure fingerprint this many times in a row.", default: "2" },
  { name: "gate-command", description: "The command that runs the protected tests, e.g. `npm test` or `pytest tests`. Required.", required: true },
  { name: "gate-setup", description: "A command run before each gate in its clean checkout (e.g. `npm ci --offline`)." },
  {
    name: "gate-report",
    description: "Path of a report written by the gate command: JUnit XML, a jest / vitest JSON report, or TAP. When set it is read instead of the console output. `exit-code`: for a gate with no countable runner (`make test`, a shell script), judge by the exit code alone; no test count or test id is then checked, and the summary and the pull request say so."
  },
  {
    name: "protected-paths",
    description: "Globs (newline or comma list) added to the protected defaults: test files at any depth, test-runner and package-manager configuration, `.github/workflows` and `.github/actions`, and the task files and scripts `gate-command` and `gate-setup` name. `!pattern` removes the default spelled exactly so, or else unprotects the paths it matches. package.json and pyproject.toml are protected except for their dependency and version keys. Changes to protected paths are rejected and restored from the base ref."
  },
  {
    name: "dependency-changes",
    description: "What the agent may change of the dependencies the gate installs. `refuse`: any change to a dependency spec (package.json and pyproject.toml dependency tables) or a lockfile (package-lock.json, yarn.lock, pnpm-lock.yaml, requirements*.txt, uv.lock, poetry.lock, Pipfile.lock, \u2026), and any committed dependency folder (`node_modules`, `site-packages`), is tampering. `registry`: name@version changes from the package registry are allowed (integrity checked, install scripts off), never a path, tarball, wheel, URL, git or alias spec, nor the test runner, its plugins and the assertion libraries the gate loads.",
    default: "refuse"
  },
  { name: "base-ref", description: "Where the protected tests come from. Defaults to the PR base, else the default branch." },
  {
    name: "features-file",
    description: "Optional flip-only checklist (a JSON list; `passes` may only go false\u2192true, and a flip counts only when the gate's `gate-report` lists its `test` id as passed)."
  },
  {
    name: "progress-file",
    description: "Notes carried between fresh-context iterations; loopgate appends one line per iteration, the last naming the stop reason.",
    default: ".loopgate/progress.md"
  },
  { name: "loop-id", description: "Names the state key, the work branch `loopgate/<loop-id>` and the dedupe markers. Defaults to workflow + job." },
  {
    name: "resume",
    description: "Resume the loop's unfinished work (after an escalation or a cap), said first in the log with its branch. `false` starts from the base (the CLI's `--fresh`).",
    default: "true"
  },
  {
    name: "period-ceiling-usd",
    description: "Rolling spend ceiling across runs over `period-hours`: the sum of every run's own charges entry in the Actions cache, read from the cache list (the job needs `actions: read`; an unreadable window counts as full). None by default."
  },
  { name: "period-hours", description: "The window of `period-ceiling-usd`, in hours.", default: "24" },
  { name: "max-open-prs", description: "Review capacity; with this many open loop PRs the run stops before spending.", default: "1" },
  { name: "max-runs-per-pr", description: "For PR loops, the most runs on one pull request before the loop stops.", default: "5" },
  {
    name: "price-table",
    description: 'Price overrides over the built-in table, for calls metered at the wire and for codex off it. JSON: {"<model>": {"input": usd-per-Mtok, "cachedInput": ..., "cacheWrite": ..., "output": ...}}.'
  },
  { name: "on-success", description: "'pull-request', 'push' (PR loops) or 'none'.", default: "pull-request" },
  { name: "on-escalate", description: "'issue', 'comment' (PR loops) or 'none'.", default: "issue" },
  { name: "escalate-to", description: "Assignees of escalation issues (newline or comma list)." },
  { name: "labels", description: "Labels for loop PRs and escalation issues (newline or comma list).", default: "loopgate" },
  { name: "reviewers", description: "Reviewers requested on loop PRs (newline or comma list)." },
  { name: "draft", description: "Open loop pull requests as drafts.", default: "false" },
  { name: "allow-pull-request-target", description: "Allow running on `pull_request_target` (refused by default).", default: "false" },
  {
    name: "comment-command",
    description: "On comment events (a PR comment, review or review comment; a reply on the loop's escalation issue), the command that starts a run, from users with write permission; the rest of the comment is the task.",
    default: "/loopgate"
  },
  { name: "github-token", description: "Used by loopgate only, never visible to the agent.", default: "${{ github.token }}" },
  { name: "anthropic-api-key", description: "Passed to the Claude Code process only." },
  {
    name: "claude-code-oauth-token",
    description: "A Claude subscription token (`claude setup-token`), passed to the Claude Code process only, as CLAUDE_CODE_OAUTH_TOKEN."
  },
  { name: "openai-api-key", description: "Passed to the Codex process only (as AZURE_OPENAI_API_KEY with `provider: azure`)." },
  {
    name: "provider",
    description: "Where the agent's model is served: 'anthropic' (default), 'bedrock' or 'vertex' for Claude; 'openai' (default) or 'azure' for Codex. Only that provider's documented variables reach the agent (e.g. the AWS credentials aws-actions/configure-aws-credentials exports), never the gate."
  },
  {
    name: "model",
    description: "The model, passed as --model to the CLI and used by the Codex pricing (then `agent-args` may not name one). Defaults to the CLI's own."
  },
  {
    name: "commit-author",
    description: "Author and committer of loopgate's commits, 'Name <email>'. Defaults to the token's own identity (github-actions[bot] for the workflow's GITHUB_TOKEN)."
  },
  {
    name: "sign-commits",
    description: "Create loopgate's commits (the loop branch, the WIP branch, a pull request's branch) through the GitHub API, so GitHub signs them and they show Verified. Applies where GitHub signs the API's commits: an installation token (GITHUB_TOKEN, a GitHub App's) and no `commit-author`; elsewhere, and with `false`, loopgate pushes with git.",
    default: "true"
  },
  {
    name: "allow-users",
    description: "Logins (newline or comma list) that may start a loop besides users with write permission on the repository; `*` allows anyone. A run caused by anyone else is skipped."
  },
  { name: "allow-bots", description: "Let bot accounts (`\u2026[bot]`) start a loop without the write-permission check.", default: "false" },
  { name: "dry-run", description: "Run the loop, write the PR / issue bodies to files, publish nothing.", default: "false" }
];

// src/gate/protection/protection-defaults.ts
var TEST_FILES = [
  "**/*.test.*",
  "**/*.spec.*",
  // vitest's type tests
  "**/*.test-d.*",
  "**/*.spec-d.*",
  "**/test_*.py",
  "**/*_test.py",
  "**/*_test.go",
  "**/__tests__/**",
  "**/tests/**",
  "**/test/**",
  "**/spec/**",
  "**/testdata/**",
  "**/__snapshots__/**",
  "**/*.snap",
  "**/__mocks__/**"
];
var PACKAGE_MANAGER_CONFIG = [
  "**/.npmrc",
  "**/.yarnrc*",
  "**/.yarn/releases/**",
  "**/.yarn/plugins/**",
  "**/.pnpmfile.cjs",
  "**/pnpm-workspace.yaml",
  "**/bunfig.toml",
  "**/uv.toml",
  "**/poetry.toml",
  "**/hatch.toml",
  "**/package.json",
  "**/pyproject.toml"
];
var PYTHON_RUNNER_CONFIG = [
  "**/pytest.ini",
  "**/.pytest.ini",
  "**/pytest.toml",
  "**/.pytest.toml",
  "**/tox.ini",
  "**/setup.cfg",
  "**/noxfile.py",
  "**/conftest.py",
  "**/sitecustomize.py",
  "**/usercustomize.py",
  "**/*.pth",
  "**/.coveragerc"
];
var JS_RUNNER_CONFIG = [
  "**/babel.config.*",
  "**/.babelrc*",
  "**/.swcrc",
  "**/swc.config.*",
  "**/jest.config*",
  "**/jest.setup*",
  "**/jest-setup.*",
  "**/setupTests.*",
  "**/vitest.config*",
  "**/vitest.workspace*",
  "**/vitest.setup*",
  "**/vite.config*",
  "**/.mocharc*",
  "**/karma.conf*",
  "**/karma.config*",
  "**/.c8rc*",
  "**/.nycrc*",
  "**/nyc.config.*",
  "**/playwright.config*",
  "**/playwright-ct.config*",
  "**/ava.config.*",
  "**/.taprc*",
  "**/cypress.config.*",
  "**/cypress.json",
  "**/jasmine.json",
  "**/tsconfig*.json",
  "**/jsconfig*.json"
];
var CI_DEFINITIONS = [".github/workflows/**", ".github/actions/**"];
var DEFAULT_PROTECTED_PATHS = [
  .../* @__PURE__ */ new Set([
    ...TEST_FILES,
    ...PACKAGE_MANAGER_CONFIG,
    ...PYTHON_RUNNER_CONFIG,
    ...JS_RUNNER_CONFIG,
    ...CI_DEFINITIONS,
    ...TEST_RUNNERS.flatMap((r) => r.configFiles)
  ])
];
function resolveProtectedPatterns(entries, commands) {
  const list = [...DEFAULT_PROTECTED_PATHS, ...gateCommandPatterns(commands)];
  for (const entry of entries) {
    if (entry.startsWith("!") && list.includes(entry.slice(1))) {
      const removed = entry.slice(1);
      for (let i = list.indexOf(removed); i !== -1; i = list.indexOf(removed)) list.splice(i, 1);
    } else list.push(entry);
  }
  return [...new Set(list)];
}

// src/settings.ts
var DEPENDENCY_CHANGES = ["refuse", "registry"];
var TASKS = ["dependency-upgrade", "fix-dependency-pr"];
var ON_SUCCESS = ["pull-request", "push", "none"];
var ON_ESCALATE = ["issue", "comment", "none"];

// src/inputs/agent.ts
function checkAgentArgs(spec, raw, args) {
  const refused = refusedArg(spec, args);
  if (!refused) return;
  const why = refused.why === "fresh-process" ? `each call must be a fresh process (refused: ${spec.refusedArgs.join(", ")})` : "loopgate sets it from its own inputs (max-turns, call-budget-usd)";
  throw new ConfigError("agent-args", raw, `extra CLI arguments without ${refused.arg}: ${why}`);
}
function readProvider(spec, inputs) {
  const providerRaw = inputs.raw("provider").trim();
  const names = (spec.providers ?? []).map((p) => `'${p.name}'`);
  if (providerRaw !== "" && !providerSpec(spec, providerRaw)) {
    const accepted = names.length > 0 ? `for agent '${spec.name}': ${names.join(", ")}` : `nothing for agent '${spec.name}' (it brings its own command)`;
    throw new ConfigError("provider", providerRaw, accepted);
  }
  const provider = providerSpec(spec, providerRaw === "" ? void 0 : providerRaw);
  if (provider?.requiredEnv && !inputs.env[provider.requiredEnv.name]) throw new ConfigError("provider", providerRaw, provider.requiredEnv.accepted);
  return provider?.name;
}
function readModel({ spec, inputs, rawArgs, agentArgs }) {
  const modelRaw = inputs.raw("model").trim();
  if (modelRaw === "") return void 0;
  if (!spec.modelFlag) throw new ConfigError("model", modelRaw, `nothing for agent '${spec.name}' (it brings its own command)`);
  if (!/^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/.test(modelRaw)) throw new ConfigError("model", modelRaw, "a model name (letters, digits and . _ : / @ + -)");
  if (modelFromArgs(agentArgs) !== void 0 || agentArgs.some((a, i) => /^(-c|--config)$/.test(agentArgs[i - 1] ?? "") && /^model\s*=/.test(a))) {
    throw new ConfigError("agent-args", rawArgs, "extra CLI arguments without a model: the 'model' input names it");
  }
  return modelRaw;
}
function readPriceTable(inputs) {
  const priceTable = inputs.optional("price-table");
  if (priceTable === void 0) return void 0;
  const parsed = parsePriceTable(priceTable);
  if (typeof parsed === "string") {
    throw new ConfigError(
      "price-table",
      priceTable,
      `a JSON object {"<model>": {"input": n, "cachedInput": n, "output": n}} in USD per million tokens (${parsed})`
    );
  }
  return priceTable;
}
function readAgentSpec(inputs) {
  return agentSpec(parseChoice("agent", inputs.get("agent"), agentNames()));
}
function readAgentSettings(spec, inputs) {
  for (const required of spec.requiredInputs ?? []) {
    if (!inputs.optional(required.input)) throw new ConfigError(required.input, "", required.accepted);
  }
  const rawArgs = inputs.raw("agent-args");
  const agentArgs = splitArgs(rawArgs);
  checkAgentArgs(spec, rawArgs, agentArgs);
  const provider = readProvider(spec, inputs);
  const model = readModel({ spec, inputs, rawArgs, agentArgs });
  const agentCredentials = {};
  for (const input of credentialInputs(spec)) {
    const value = inputs.optional(input);
    if (value !== void 0) agentCredentials[input] = value;
  }
  return {
    agent: spec.name,
    agentCommand: inputs.optional("agent-command"),
    agentArgs,
    agentVersion: inputs.optional("agent-version"),
    agentEnv: parseList(inputs.raw("agent-env")),
    agentApiKey: spec.apiKey ? inputs.optional(spec.apiKey.input) : void 0,
    provider,
    model,
    agentCredentials,
    priceTable: readPriceTable(inputs)
  };
}

// src/inputs/task.ts
import { existsSync, readFileSync } from "node:fs";
import path2 from "node:path";
function readIgnore(inputs) {
  const ignore = parseList(inputs.raw("ignore"));
  for (const entry of ignore) {
    const rule = parseIgnoreRule(entry);
    if (typeof rule === "string") throw new ConfigError("ignore", entry, `a package name (\`*\` wildcards allowed) or name@version-range (${rule})`);
  }
  return ignore;
}
function readPromptFile(workspace, promptFile) {
  const file = path2.resolve(workspace, promptFile);
  if (!existsSync(file)) throw new ConfigError("prompt-file", promptFile, "the path of an existing file");
  const prompt = readFileSync(file, "utf8");
  if (prompt.trim() === "") throw new ConfigError("prompt-file", promptFile, "a file holding the task (this one is empty)");
  return prompt;
}
function readTaskSettings(inputs, workspace) {
  const inlinePrompt = inputs.raw("prompt");
  const promptFile = inputs.optional("prompt-file");
  const taskRaw = inputs.optional("task");
  const task = taskRaw === void 0 ? void 0 : parseChoice("task", taskRaw, TASKS);
  if (task && (inlinePrompt.trim() !== "" || promptFile)) {
    throw new ConfigError("task", taskRaw ?? "", "either 'task' or 'prompt' / 'prompt-file', not both");
  }
  if (inlinePrompt.trim() !== "" && promptFile) {
    throw new ConfigError("prompt-file", promptFile, "either 'prompt' or 'prompt-file', not both");
  }
  if (!task && inlinePrompt.trim() === "" && !promptFile) {
    throw new ConfigError("prompt", "", "a task: set 'prompt', 'prompt-file' or 'task'");
  }
  const ignore = readIgnore(inputs);
  const allowMajor = parseBoolean("allow-major", inputs.get("allow-major"));
  const dependencyBots = parseList(inputs.get("dependency-bots"));
  const common = { ignore, allowMajor, dependencyBots };
  if (task) return { prompt: taskSpec(task).prompt ?? "", promptSource: `task: ${task}`, task, ...common };
  if (promptFile) return { prompt: readPromptFile(workspace, promptFile), promptSource: promptFile, ...common };
  return { prompt: inlinePrompt, promptSource: "prompt", ...common };
}

// src/inputs/read-settings.ts
var DEFAULTS = Object.fromEntries(
  INPUT_SPECS.filter((spec) => spec.default !== void 0 && !spec.default.includes("${{")).map((spec) => [spec.name, spec.default])
);
var LOOP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
function defaultLoopId(env) {
  const raw = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join("-") || "local";
  const slug = raw.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-._]+|[-._]+$/g, "").slice(0, 100);
  return slug || "local";
}
function inputSource(read, env) {
  return {
    raw: read,
    get: (name) => read(name).trim() !== "" ? read(name) : DEFAULTS[name] ?? "",
    optional: (name) => read(name).trim() || void 0,
    env
  };
}
var MINUTES = { min: 0, max: 10080, integer: false, exclusiveMin: true };
function readLoopSettings(inputs) {
  const number = (name, rule) => parseNumber(name, inputs.get(name), rule);
  const maxIterations = number("max-iterations", { min: 1, max: 1e3, integer: true });
  const maxTurns = number("max-turns", { min: 1, max: 1e4, integer: true });
  const callBudgetUsd = number("call-budget-usd", { min: 0, max: 1e4, integer: false, exclusiveMin: true });
  const spendCeilingUsd = number("spend-ceiling-usd", { min: 0, max: 1e5, integer: false, exclusiveMin: true });
  if (!(spendCeilingUsd > callBudgetUsd)) {
    throw new ConfigError(
      "spend-ceiling-usd",
      inputs.raw("spend-ceiling-usd") || DEFAULTS["spend-ceiling-usd"],
      `a number greater than call-budget-usd (${callBudgetUsd})`
    );
  }
  return {
    maxIterations,
    maxTurns,
    callBudgetUsd,
    spendCeilingUsd,
    callTimeoutMs: parseNumber("call-timeout-minutes", inputs.get("call-timeout-minutes"), MINUTES) * 6e4,
    timeLimitMs: parseNumber("time-limit-minutes", inputs.get("time-limit-minutes"), MINUTES) * 6e4,
    noProgressLimit: number("no-progress-limit", { min: 1, max: 1e3, integer: true }),
    sameFailureLimit: number("same-failure-limit", { min: 1, max: 1e3, integer: true })
  };
}
function relativePath(name, value) {
  if (!isRelativeInside(value)) throw new ConfigError(name, value, "a relative path inside the workspace");
  return value;
}
function hostList(name, raw) {
  const entries = parseList(raw);
  if (entries.includes("*") && entries.length > 1) throw new ConfigError(name, raw.trim(), "`*` alone (the whole network), or a list of hosts without `*`");
  for (const entry of entries) {
    const why = entry === "*" ? null : badHostEntry(entry);
    if (why) throw new ConfigError(name, entry, why);
  }
  return entries;
}
function readGateSettings(inputs) {
  const gateTimeoutMs = parseNumber("gate-timeout-minutes", inputs.get("gate-timeout-minutes"), MINUTES) * 6e4;
  const gateCommand = inputs.optional("gate-command");
  if (!gateCommand) throw new ConfigError("gate-command", "", "the command that runs the protected tests, e.g. `npm test`");
  const gateSetup = inputs.optional("gate-setup");
  const featuresFile = inputs.optional("features-file");
  return {
    gateCommand,
    gateSetup,
    gateReport: inputs.optional("gate-report"),
    gateTimeoutMs,
    protectedPaths: resolveProtectedPatterns(parseList(inputs.raw("protected-paths")), [gateCommand, gateSetup]),
    baseRef: inputs.optional("base-ref"),
    dependencyChanges: parseChoice("dependency-changes", inputs.get("dependency-changes").trim(), DEPENDENCY_CHANGES),
    allowedHosts: hostList("allowed-hosts", inputs.raw("allowed-hosts")),
    gateAllowedHosts: hostList("gate-allowed-hosts", inputs.raw("gate-allowed-hosts")),
    progressFile: relativePath("progress-file", inputs.get("progress-file").trim()),
    featuresFile: featuresFile && relativePath("features-file", featuresFile)
  };
}
function readStateSettings(inputs, callBudgetUsd) {
  const periodRaw = inputs.optional("period-ceiling-usd");
  const periodCeilingUsd = periodRaw === void 0 ? void 0 : parseNumber("period-ceiling-usd", periodRaw, { min: 0, max: 1e6, integer: false, exclusiveMin: true });
  if (periodCeilingUsd !== void 0 && periodCeilingUsd < callBudgetUsd) {
    throw new ConfigError("period-ceiling-usd", periodRaw ?? "", `a number not below call-budget-usd (${callBudgetUsd})`);
  }
  const loopId = inputs.optional("loop-id") ?? defaultLoopId(inputs.env);
  if (!LOOP_ID_PATTERN.test(loopId)) {
    throw new ConfigError("loop-id", loopId, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters');
  }
  return {
    loopId,
    resume: parseBoolean("resume", inputs.get("resume")),
    periodCeilingUsd,
    periodHours: parseNumber("period-hours", inputs.get("period-hours"), { min: 0, max: 8760, integer: false, exclusiveMin: true }),
    maxRunsPerPr: parseNumber("max-runs-per-pr", inputs.get("max-runs-per-pr"), { min: 1, max: 1e3, integer: true })
  };
}
function readPublishSettings(inputs) {
  const authorRaw = inputs.optional("commit-author");
  const commitAuthor = authorRaw === void 0 ? void 0 : parseCommitAuthor(authorRaw);
  if (authorRaw !== void 0 && !commitAuthor) throw new ConfigError("commit-author", authorRaw, "a git identity 'Name <email>'");
  const commentCommand = inputs.get("comment-command").trim();
  if (!/^\S{2,40}$/.test(commentCommand)) {
    throw new ConfigError("comment-command", commentCommand, "one word of 2 to 40 characters without spaces, e.g. /loopgate");
  }
  const flag = (name) => parseBoolean(name, inputs.get(name));
  return {
    maxOpenPrs: parseNumber("max-open-prs", inputs.get("max-open-prs"), { min: 1, max: 100, integer: true }),
    onSuccess: parseChoice("on-success", inputs.get("on-success"), ON_SUCCESS),
    onEscalate: parseChoice("on-escalate", inputs.get("on-escalate"), ON_ESCALATE),
    escalateTo: parseList(inputs.raw("escalate-to")),
    labels: parseList(inputs.get("labels")),
    reviewers: parseList(inputs.raw("reviewers")),
    draft: flag("draft"),
    githubToken: inputs.raw("github-token").trim(),
    commitAuthor,
    signCommits: flag("sign-commits"),
    allowUsers: parseList(inputs.raw("allow-users")),
    allowBots: flag("allow-bots"),
    allowPullRequestTarget: flag("allow-pull-request-target"),
    commentCommand,
    dryRun: flag("dry-run")
  };
}
function repositoryFolders(root, workingDirectory) {
  const folder = path3.resolve(root, workingDirectory);
  for (let dir = folder; ; dir = path3.dirname(dir)) {
    const inside = path3.relative(root, dir);
    if (inside.startsWith("..") || path3.isAbsolute(inside)) break;
    if (existsSync2(path3.join(dir, ".git"))) return { workspace: dir, packageDir: path3.relative(dir, folder) };
    if (dir === path3.dirname(dir)) break;
  }
  return { workspace: folder, packageDir: "" };
}
function readSettings(read, env = process.env) {
  const inputs = inputSource(read, env);
  const { workspace, packageDir } = repositoryFolders(path3.resolve(env.GITHUB_WORKSPACE || process.cwd()), read("working-directory").trim());
  if (packageDir && !existsSync2(path3.join(workspace, packageDir))) {
    throw new ConfigError("working-directory", packageDir, "a folder of the repository (the package the loop works in), or its top folder");
  }
  const spec = readAgentSpec(inputs);
  const task = readTaskSettings(inputs, workspace);
  const agent = readAgentSettings(spec, inputs);
  const loop = readLoopSettings(inputs);
  const gate = readGateSettings(inputs);
  const state = readStateSettings(inputs, loop.callBudgetUsd);
  const publish = readPublishSettings(inputs);
  return forBotPullRequests({ ...task, task: task.task, ...agent, ...loop, ...gate, ...state, ...publish, workspace, packageDir });
}

export {
  isTrueInput,
  INPUT_SPECS,
  readSettings
};
