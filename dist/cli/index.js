import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ // The require scope
/******/ var __nccwpck_require__ = {};
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};

;// CONCATENATED MODULE: ./src/contract.ts
// The action inputs: names, descriptions and defaults. action.yml says the same (a test checks);
// the CLI reads its options and --help from here.
const INPUT_SPECS = [
    { name: "agent", description: "The agent: 'claude' (Claude Code `claude -p`), 'codex' (`codex exec`) or 'command' (any shell command).", default: "claude" },
    { name: "prompt", description: "The task. Set this or `prompt-file`." },
    { name: "prompt-file", description: "A file in the workspace holding the task. Set this or `prompt`." },
    { name: "working-directory", description: "The git repository the loop works in, relative to the workspace (defaults to the workspace itself)." },
    { name: "agent-command", description: "For `agent: command`: the shell command run once per iteration (prompt on stdin and in $LOOPGATE_PROMPT_FILE; cost may be reported as {\"cost_usd\": n} in $LOOPGATE_COST_FILE)." },
    { name: "agent-args", description: "Extra CLI arguments (e.g. `--model ...`). Flags that would undo a control (--resume, --continue, --bare, a second --max-turns or --max-budget-usd) are refused." },
    { name: "agent-version", description: "The npm version of the agent CLI installed when it is not on PATH (defaults to the version loopgate is tested with)." },
    { name: "agent-env", description: "Extra environment variable names (newline or comma list) passed to the agent and the gate. Tokens and runner internals are never passed." },
    { name: "max-iterations", description: "Outer-loop cap (an integer from 1; never unlimited).", default: "20" },
    { name: "max-turns", description: "Per-call turn cap, passed to the CLI and counted by loopgate from the event stream.", default: "40" },
    { name: "call-budget-usd", description: "Per-call budget in USD, passed to the CLI where it has one; a call with no cost report is charged this much.", default: "4" },
    { name: "spend-ceiling-usd", description: "Cumulative spend ceiling for this run (must be greater than call-budget-usd). A call starts only while spent + call-budget-usd ≤ ceiling.", default: "40" },
    { name: "call-timeout-minutes", description: "Per-call wall clock; the agent's whole process group is killed when it runs out.", default: "45" },
    { name: "time-limit-minutes", description: "Whole-run wall clock, so the state is saved before the job's own timeout.", default: "300" },
    { name: "gate-timeout-minutes", description: "Wall clock of one gate run; a gate that times out fails.", default: "30" },
    { name: "no-progress-limit", description: "Stop after this many iterations in a row whose diff is empty (progress and features files excluded).", default: "3" },
    { name: "same-failure-limit", description: "Stop after the same gate failure fingerprint this many times in a row.", default: "2" },
    { name: "gate-command", description: "The command that runs the protected tests, e.g. `npm test` or `pytest tests`. Required.", required: true },
    { name: "gate-setup", description: "A command run before each gate in its clean checkout (e.g. `npm ci --offline`)." },
    { name: "gate-report", description: "Path of a JUnit XML (or TAP) report written by the gate, for precise failure fingerprints." },
    { name: "protected-paths", description: "Paths (newline or comma list, `!pattern` to exclude) taken from the base ref; agent changes to them are rejected. Defaults to tests/**, test/**, __tests__/**, spec/** and test-runner configuration; package.json and pyproject.toml are protected by their test keys only." },
    { name: "base-ref", description: "Where the protected tests come from. Defaults to the PR base, else the default branch." },
    { name: "features-file", description: "Optional flip-only checklist (a JSON list; `passes` may only go false→true, and each flip must pass its `test` in the gate)." },
    { name: "progress-file", description: "Notes carried between fresh-context iterations; loopgate appends one line per iteration, the last naming the stop reason.", default: ".loopgate/progress.md" },
    { name: "loop-id", description: "Names the state key, the work branch `loopgate/<loop-id>` and the dedupe markers. Defaults to workflow + job." },
    { name: "period-ceiling-usd", description: "Rolling spend ceiling across runs over `period-hours`, kept in the cached state. None by default." },
    { name: "period-hours", description: "The window of `period-ceiling-usd`, in hours.", default: "24" },
    { name: "max-open-prs", description: "Review capacity; with this many open loop PRs the run stops before spending.", default: "1" },
    { name: "max-runs-per-pr", description: "For PR loops, the most runs on one pull request before the loop stops.", default: "5" },
    { name: "price-table", description: "Codex pricing override, JSON: {\"<model>\": {\"input\": usd-per-Mtok, \"cachedInput\": ..., \"output\": ...}}." },
    { name: "on-success", description: "'pull-request', 'push' (PR loops) or 'none'.", default: "pull-request" },
    { name: "on-escalate", description: "'issue', 'comment' (PR loops) or 'none'.", default: "issue" },
    { name: "escalate-to", description: "Assignees of escalation issues (newline or comma list)." },
    { name: "labels", description: "Labels for loop PRs and escalation issues (newline or comma list).", default: "loopgate" },
    { name: "reviewers", description: "Reviewers requested on loop PRs (newline or comma list)." },
    { name: "draft", description: "Open loop pull requests as drafts.", default: "false" },
    { name: "allow-pull-request-target", description: "Allow running on `pull_request_target` (refused by default).", default: "false" },
    { name: "github-token", description: "Used by loopgate only, never visible to the agent.", default: "${{ github.token }}" },
    { name: "anthropic-api-key", description: "Passed to the Claude Code process only." },
    { name: "openai-api-key", description: "Passed to the Codex process only." },
    { name: "dry-run", description: "Run the loop, write the PR / issue bodies to files, publish nothing.", default: "false" },
];
const OUTPUT_NAMES = (/* unused pure expression or super */ null && (["outcome", "stop-reason", "iterations", "spend-usd", "pull-request-url", "issue-url", "log-file"]));

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
var external_node_path_default = /*#__PURE__*/__nccwpck_require__.n(external_node_path_namespaceObject);
;// CONCATENATED MODULE: ./src/inputs.ts



class ConfigError extends Error {
    input;
    value;
    accepted;
    constructor(input, value, accepted) {
        super(`Input '${input}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`);
        this.input = input;
        this.value = value;
        this.accepted = accepted;
        this.name = 'ConfigError';
    }
}
/** Defaults: the seeds' starting numbers, from the one table the action and the CLI share. */
const DEFAULTS = Object.fromEntries(INPUT_SPECS.filter((spec) => spec.default !== undefined && !spec.default.includes('${{')).map((spec) => [spec.name, spec.default]));
const DEFAULT_PROTECTED_PATHS = [
    'tests/**',
    'test/**',
    '__tests__/**',
    'spec/**',
    '**/jest.config.*',
    '**/vitest.config.*',
    '**/tsconfig*.json',
    '**/pytest.ini',
    '**/conftest.py',
    '**/setup.cfg',
    '**/tox.ini',
    '**/.mocharc*',
    '**/karma.conf.*'
];
/** Flags that would undo a control if passed through `agent-args`. */
const REFUSED_FLAGS = ['--resume', '--continue', '--bare'];
/** Claude Code's short forms of --resume and --continue (codex uses -c for config overrides). */
const REFUSED_CLAUDE_SHORT_FLAGS = ['-r', '-c'];
const CONTROLLED_FLAGS = ['--max-turns', '--max-budget-usd', '--dangerously-skip-permissions', '--output-format'];
function describeRule(rule) {
    const kind = rule.integer ? 'an integer' : 'a number';
    const low = rule.exclusiveMin ? `greater than ${rule.min}` : `from ${rule.min}`;
    return `${kind} ${low} to ${rule.max}`;
}
function parseNumber(name, raw, rule) {
    const text = raw.trim();
    const value = text === '' ? NaN : Number(text);
    const ok = Number.isFinite(value) &&
        (!rule.integer || Number.isInteger(value)) &&
        (rule.exclusiveMin ? value > rule.min : value >= rule.min) &&
        value <= rule.max;
    if (!ok)
        throw new ConfigError(name, raw, describeRule(rule));
    return value;
}
function parseChoice(name, raw, choices) {
    const value = raw.trim();
    if (!choices.includes(value))
        throw new ConfigError(name, raw, choices.map((c) => `'${c}'`).join(', '));
    return value;
}
function parseBoolean(name, raw) {
    const value = raw.trim().toLowerCase();
    if (['true', 'yes', '1'].includes(value))
        return true;
    if (['false', 'no', '0', ''].includes(value))
        return false;
    throw new ConfigError(name, raw, "'true' or 'false'");
}
/** A newline- or comma-separated list, blank entries dropped. */
function parseList(raw) {
    return raw
        .split(/[\n,]/)
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
}
/** Splits CLI arguments the way a shell would for simple quoting ('…', "…", backslash). */
function splitArgs(raw) {
    const args = [];
    let current = '';
    let quote = null;
    let has = false;
    for (let i = 0; i < raw.length; i++) {
        const ch = raw[i];
        if (quote) {
            if (ch === quote)
                quote = null;
            else if (ch === '\\' && quote === '"' && i + 1 < raw.length)
                current += raw[++i];
            else
                current += ch;
            continue;
        }
        if (ch === '"' || ch === "'") {
            quote = ch;
            has = true;
        }
        else if (ch === '\\' && i + 1 < raw.length) {
            current += raw[++i];
            has = true;
        }
        else if (/\s/.test(ch)) {
            if (has)
                args.push(current);
            current = '';
            has = false;
        }
        else {
            current += ch;
            has = true;
        }
    }
    if (quote)
        throw new ConfigError('agent-args', raw, 'arguments with balanced quotes');
    if (has)
        args.push(current);
    return args;
}
function checkAgentArgs(agent, raw, args) {
    const refused = agent === 'claude' ? [...REFUSED_FLAGS, ...REFUSED_CLAUDE_SHORT_FLAGS] : REFUSED_FLAGS;
    for (const arg of args) {
        const flag = arg.split('=')[0];
        if (refused.includes(flag) || (arg === 'resume' && agent === 'codex')) {
            throw new ConfigError('agent-args', raw, `extra CLI arguments without ${flag}: each call must be a fresh process (refused: ${REFUSED_FLAGS.join(', ')})`);
        }
        if (CONTROLLED_FLAGS.includes(flag)) {
            throw new ConfigError('agent-args', raw, `extra CLI arguments without ${flag}: loopgate sets it from its own inputs (max-turns, call-budget-usd)`);
        }
    }
}
const LOOP_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** A loop id safe for branch names and cache keys, derived from workflow + job when not given. */
function defaultLoopId(env) {
    const raw = [env.GITHUB_WORKFLOW, env.GITHUB_JOB].filter(Boolean).join('-') || 'local';
    const slug = raw
        .toLowerCase()
        .replace(/[^a-z0-9._-]+/g, '-')
        .replace(/^[-._]+|[-._]+$/g, '')
        .slice(0, 100);
    return slug || 'local';
}
/**
 * Builds the Settings from the inputs. Throws ConfigError on the first bad value, before anything
 * is spent.
 */
function readSettings(read, env = process.env) {
    const get = (name) => {
        const value = read(name);
        if (value.trim() !== '')
            return value;
        return DEFAULTS[name] ?? '';
    };
    const optional = (name) => {
        const value = read(name).trim();
        return value === '' ? undefined : value;
    };
    const workspace = external_node_path_default().resolve(env.GITHUB_WORKSPACE || process.cwd(), read('working-directory').trim());
    const agent = parseChoice('agent', get('agent'), ['claude', 'codex', 'command']);
    const inlinePrompt = read('prompt');
    const promptFile = optional('prompt-file');
    if (inlinePrompt.trim() !== '' && promptFile) {
        throw new ConfigError('prompt-file', promptFile, "either 'prompt' or 'prompt-file', not both");
    }
    if (inlinePrompt.trim() === '' && !promptFile) {
        throw new ConfigError('prompt', '', "a task: set 'prompt' or 'prompt-file'");
    }
    let prompt = inlinePrompt;
    let promptSource = 'prompt';
    if (promptFile) {
        const file = external_node_path_default().resolve(workspace, promptFile);
        if (!(0,external_node_fs_namespaceObject.existsSync)(file))
            throw new ConfigError('prompt-file', promptFile, 'the path of an existing file');
        prompt = (0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8');
        if (prompt.trim() === '')
            throw new ConfigError('prompt-file', promptFile, 'a file holding the task (this one is empty)');
        promptSource = promptFile;
    }
    const agentCommand = optional('agent-command');
    if (agent === 'command' && !agentCommand) {
        throw new ConfigError('agent-command', '', "a shell command when 'agent' is 'command'");
    }
    const rawArgs = read('agent-args');
    const agentArgs = splitArgs(rawArgs);
    checkAgentArgs(agent, rawArgs, agentArgs);
    const maxIterations = parseNumber('max-iterations', get('max-iterations'), { min: 1, max: 1000, integer: true });
    const maxTurns = parseNumber('max-turns', get('max-turns'), { min: 1, max: 10000, integer: true });
    const callBudgetUsd = parseNumber('call-budget-usd', get('call-budget-usd'), {
        min: 0,
        max: 10000,
        integer: false,
        exclusiveMin: true
    });
    const spendCeilingUsd = parseNumber('spend-ceiling-usd', get('spend-ceiling-usd'), {
        min: 0,
        max: 100000,
        integer: false,
        exclusiveMin: true
    });
    if (!(spendCeilingUsd > callBudgetUsd)) {
        throw new ConfigError('spend-ceiling-usd', read('spend-ceiling-usd') || DEFAULTS['spend-ceiling-usd'], `a number greater than call-budget-usd (${callBudgetUsd})`);
    }
    const minutes = { min: 0, max: 10080, integer: false, exclusiveMin: true };
    const callTimeoutMs = parseNumber('call-timeout-minutes', get('call-timeout-minutes'), minutes) * 60_000;
    const timeLimitMs = parseNumber('time-limit-minutes', get('time-limit-minutes'), minutes) * 60_000;
    const gateTimeoutMs = parseNumber('gate-timeout-minutes', get('gate-timeout-minutes'), minutes) * 60_000;
    const noProgressLimit = parseNumber('no-progress-limit', get('no-progress-limit'), { min: 1, max: 1000, integer: true });
    const sameFailureLimit = parseNumber('same-failure-limit', get('same-failure-limit'), {
        min: 1,
        max: 1000,
        integer: true
    });
    const gateCommand = optional('gate-command');
    if (!gateCommand)
        throw new ConfigError('gate-command', '', 'the command that runs the protected tests, e.g. `npm test`');
    const protectedRaw = optional('protected-paths');
    const protectedPaths = protectedRaw ? parseList(protectedRaw) : [...DEFAULT_PROTECTED_PATHS];
    const periodRaw = optional('period-ceiling-usd');
    const periodCeilingUsd = periodRaw === undefined
        ? undefined
        : parseNumber('period-ceiling-usd', periodRaw, { min: 0, max: 1000000, integer: false, exclusiveMin: true });
    if (periodCeilingUsd !== undefined && periodCeilingUsd < callBudgetUsd) {
        throw new ConfigError('period-ceiling-usd', periodRaw ?? '', `a number not below call-budget-usd (${callBudgetUsd})`);
    }
    const periodHours = parseNumber('period-hours', get('period-hours'), { min: 0, max: 8760, integer: false, exclusiveMin: true });
    const maxOpenPrs = parseNumber('max-open-prs', get('max-open-prs'), { min: 1, max: 100, integer: true });
    const maxRunsPerPr = parseNumber('max-runs-per-pr', get('max-runs-per-pr'), { min: 1, max: 1000, integer: true });
    const loopId = optional('loop-id') ?? defaultLoopId(env);
    if (!LOOP_ID_PATTERN.test(loopId)) {
        throw new ConfigError('loop-id', loopId, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 characters');
    }
    const progressFile = get('progress-file').trim();
    if (external_node_path_default().isAbsolute(progressFile) || progressFile.split(/[\\/]/).includes('..')) {
        throw new ConfigError('progress-file', progressFile, 'a relative path inside the workspace');
    }
    const featuresFile = optional('features-file');
    if (featuresFile && (external_node_path_default().isAbsolute(featuresFile) || featuresFile.split(/[\\/]/).includes('..'))) {
        throw new ConfigError('features-file', featuresFile, 'a relative path inside the workspace');
    }
    return {
        agent,
        prompt,
        promptSource,
        agentCommand,
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
        gateSetup: optional('gate-setup'),
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
        onSuccess: parseChoice('on-success', get('on-success'), ['pull-request', 'push', 'none']),
        onEscalate: parseChoice('on-escalate', get('on-escalate'), ['issue', 'comment', 'none']),
        escalateTo: parseList(read('escalate-to')),
        labels: parseList(get('labels')),
        reviewers: parseList(read('reviewers')),
        draft: parseBoolean('draft', get('draft')),
        githubToken: read('github-token').trim(),
        anthropicApiKey: optional('anthropic-api-key'),
        openaiApiKey: optional('openai-api-key'),
        priceTable: optional('price-table'),
        allowPullRequestTarget: parseBoolean('allow-pull-request-target', get('allow-pull-request-target')),
        dryRun: parseBoolean('dry-run', get('dry-run')),
        workspace
    };
}

;// CONCATENATED MODULE: ./src/loop/stop-reasons.ts
/** The closed set of reasons a run ends for. Every run ends with exactly one. */
const STOP_REASONS = [
    'verified',
    'max-iterations',
    'spend-ceiling',
    'period-ceiling',
    'time-limit',
    'no-progress',
    'same-failure',
    'protected-tampering',
    'agent-failure',
    'cancelled',
    'review-capacity',
    'nothing-to-do',
    'state-corrupt',
    'config-error'
];
const SKIPS = new Set(['review-capacity', 'nothing-to-do']);
const NEVER_STARTED = new Set(['config-error', 'state-corrupt']);
function isStopReason(value) {
    return STOP_REASONS.includes(value);
}
/** Whether a person should be asked to decide (an escalation issue or comment). */
function needsEscalation(reason) {
    return reason !== 'verified' && !SKIPS.has(reason) && !NEVER_STARTED.has(reason);
}
function outcomeFor(reason, escalationEnabled = true) {
    if (reason === 'verified')
        return 'verified';
    if (SKIPS.has(reason))
        return 'skipped';
    if (NEVER_STARTED.has(reason))
        return 'stopped';
    return escalationEnabled ? 'escalated' : 'stopped';
}
/** Distinct exit status per stop reason for the local CLI: 0 for verified, 10 + index otherwise. */
function exitCodeFor(reason) {
    if (reason === 'verified')
        return 0;
    return 10 + STOP_REASONS.indexOf(reason);
}
/** Plain words: which control fired, and what a person can change. */
const STOP_EXPLANATIONS = {
    verified: {
        what: 'The protected gate passed on a non-empty change set.',
        action: 'Review the pull request; a passing gate is only as good as the tests behind it.'
    },
    'max-iterations': {
        what: 'The outer loop reached `max-iterations` without a passing gate.',
        action: 'Split the task into smaller pieces, or raise `max-iterations` if each attempt made real progress.'
    },
    'spend-ceiling': {
        what: 'Starting another call could have pushed this run past `spend-ceiling-usd`.',
        action: 'Raise `spend-ceiling-usd`, lower `call-budget-usd`, or narrow the task.'
    },
    'period-ceiling': {
        what: 'The rolling spend over `period-hours` left no room for another call under `period-ceiling-usd`.',
        action: 'Wait for the window to roll, or raise `period-ceiling-usd`.'
    },
    'time-limit': {
        what: 'The run reached `time-limit-minutes`.',
        action: 'Raise `time-limit-minutes` (below the job\'s `timeout-minutes`), or split the task.'
    },
    'no-progress': {
        what: 'Several iterations in a row left the code unchanged (`no-progress-limit`).',
        action: 'Make the task more specific, or check that the agent can run the tools it needs.'
    },
    'same-failure': {
        what: 'The gate failed the same way after new changes (`same-failure-limit`): retrying brought no new evidence.',
        action: 'Read the failing tests below; fix a flaky test, or give the agent the missing context.'
    },
    'protected-tampering': {
        what: 'The agent changed protected tests or test configuration again after being told it may not.',
        action: 'Check whether the task needs the tests changed; if so, change them yourself first.'
    },
    'agent-failure': {
        what: 'The agent process failed several calls in a row (errors, refusals, crashes or timeouts).',
        action: 'Check the API key, the model name in `agent-args`, and the agent output in the attempt log.'
    },
    cancelled: {
        what: 'The run was cancelled; the in-flight call was charged and the log flushed.',
        action: 'Re-run the workflow; the next run resumes from the work-in-progress branch.'
    },
    'review-capacity': {
        what: 'This loop already has `max-open-prs` open pull requests; nothing was spent.',
        action: 'Review or close the open loop pull requests, or raise `max-open-prs`.'
    },
    'nothing-to-do': {
        what: 'There was nothing to do: no change was needed and the gate passes.',
        action: 'Nothing; the next run tries again.'
    },
    'state-corrupt': {
        what: 'The saved loop state could not be read; nothing was spent.',
        action: 'Delete the `loopgate-<loop-id>-` cache entries, or fix the state shown in the log.'
    },
    'config-error': {
        what: 'An input was invalid; nothing was spent.',
        action: 'Fix the input named in the error message.'
    }
};

;// CONCATENATED MODULE: ./src/report/markdown.ts

const usd = (n) => `$${n.toFixed(2)}`;
function cell(text) {
    return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
function gateCell(record) {
    const g = record.gate;
    if (!g)
        return '—';
    const base = g.passed ? '✅ passed' : `❌ ${g.reason}${g.fingerprint ? ` \`${g.fingerprint}\`` : ''}`;
    return record.gateRan ? base : `${base} (unchanged)`;
}
function iterationsTable(iterations) {
    if (iterations.length === 0)
        return '_No agent call was made._';
    const rows = iterations.map((r) => [
        String(r.iteration),
        cell(r.agent.status === 'claimed-done' ? 'claimed done' : `${r.agent.status}: ${r.agent.reason}`),
        `${usd(r.chargedUsd)} (${r.agent.costSource})`,
        String(r.agent.turns),
        r.changedFiles.length === 0 ? 'none' : `${r.changedFiles.length} (+${r.stat.insertions}/−${r.stat.deletions})`,
        cell(gateCell(r)),
        cell(r.rejected.length > 0 ? r.rejected.join('; ') : ''),
        usd(r.spentUsd),
        r.decision
    ].join(' | '));
    return [
        '| # | agent | cost | turns | files | gate | rejected | spent | decision |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows.map((r) => `| ${r} |`)
    ].join('\n');
}
function stopSection(reason) {
    const e = STOP_EXPLANATIONS[reason];
    return `**Stop reason: \`${reason}\`.** ${e.what}\n\n**What you can do:** ${e.action}`;
}
function failingTestsSection(outcome) {
    const v = outcome.lastVerdict;
    if (!v || v.passed)
        return '';
    const lines = v.failures.slice(0, 50).map((f) => `- \`${cell(f.id)}\`${f.message ? ` — ${cell(f.message)}` : ''}`);
    if (v.failures.length > 50)
        lines.push(`- … and ${v.failures.length - 50} more`);
    return [
        `### Last gate failure ${v.fingerprint ? `\`${v.fingerprint}\`` : ''}`,
        `${v.reason}${v.failures.length ? `, ${v.failures.length} failing test(s):` : ''}`,
        ...lines
    ].join('\n');
}
function runSummary(outcome, ctx) {
    return [
        `## loopgate: ${outcome.stopReason}`,
        stopSection(outcome.stopReason),
        `Loop \`${ctx.loopId}\` · ${outcome.iterations.length} iteration(s) · spent ${usd(outcome.spentUsd)} of ${usd(ctx.spendCeilingUsd)} · the agent claimed done ${outcome.claimedDone} time(s), the gate agreed ${outcome.gateAgreed} time(s).`,
        ...(ctx.notes ?? []).map((n) => `> ${n}`),
        iterationsTable(outcome.iterations),
        failingTestsSection(outcome),
        `Attempt log: \`${ctx.logFile}\``
    ]
        .filter((s) => s !== '')
        .join('\n\n');
}

;// CONCATENATED MODULE: ./src/publish/bodies.ts



const bodies_usd = (n) => `$${n.toFixed(2)}`;
const BODY_LIMIT = 65536;
function attemptLog(ctx, budget) {
    let log = '';
    try {
        log = (0,external_node_fs_namespaceObject.readFileSync)(ctx.logFile, 'utf8');
    }
    catch {
        return '';
    }
    const cut = log.length > budget;
    const text = cut ? `${log.slice(0, Math.max(0, budget))}\n… (cut; the full log is in the workflow artifact)` : log;
    return `<details><summary>Attempt log (JSON Lines)</summary>\n\n\`\`\`json\n${text.replace(/```/g, '`\u200b``')}\n\`\`\`\n</details>`;
}
function withLog(head, ctx) {
    const room = BODY_LIMIT - head.length - 400;
    return `${head}\n\n${attemptLog(ctx, room)}`;
}
function marker(loopId) {
    return `<!-- loopgate:loop-id=${loopId} -->`;
}
function pullRequestBody(ctx) {
    const { settings, outcome } = ctx;
    const head = [
        marker(settings.loopId),
        `## loopgate: verified`,
        `**Task** (${settings.promptSource}):\n\n> ${settings.prompt.trim().slice(0, 4000).replace(/\n/g, '\n> ')}`,
        `The protected gate (\`${settings.gateCommand}\`) passed on commit \`${outcome.verifiedCommit}\` after ${outcome.iterations.length} iteration(s). Spent ${bodies_usd(outcome.spentUsd)} of the ${bodies_usd(settings.spendCeilingUsd)} ceiling.`,
        '### Iterations',
        iterationsTable(outcome.iterations),
        'A passing gate is only as trustworthy as the tests behind it: please read the change.'
    ].join('\n\n');
    return withLog(head, ctx);
}
function escalationBody(ctx) {
    const { settings, outcome } = ctx;
    const head = [
        marker(settings.loopId),
        `## loopgate needs a person: ${outcome.stopReason}`,
        stopSection(outcome.stopReason),
        `**Task** (${settings.promptSource}):\n\n> ${settings.prompt.trim().slice(0, 4000).replace(/\n/g, '\n> ')}`,
        `Spent ${bodies_usd(outcome.spentUsd)} of the ${bodies_usd(settings.spendCeilingUsd)} ceiling over ${outcome.iterations.length} iteration(s).`,
        '### Attempts',
        iterationsTable(outcome.iterations),
        failingTestsSection(outcome)
    ]
        .filter(Boolean)
        .join('\n\n');
    return withLog(head, ctx);
}
function wantsEscalation(ctx) {
    return needsEscalation(ctx.outcome.stopReason);
}

;// CONCATENATED MODULE: ./src/publish/dry-run.ts



/** Writes the pull request or issue body it would have opened; publishes nothing. */
class DryRunPublisher {
    async publish(ctx) {
        if (ctx.outcome.stopReason === 'verified') {
            const file = external_node_path_default().join(ctx.runDir, 'pull-request.md');
            (0,external_node_fs_namespaceObject.writeFileSync)(file, pullRequestBody(ctx));
            return { files: [file], notes: [`dry run: the pull request body is in ${file}`] };
        }
        if (wantsEscalation(ctx)) {
            const file = external_node_path_default().join(ctx.runDir, 'escalation-issue.md');
            (0,external_node_fs_namespaceObject.writeFileSync)(file, escalationBody(ctx));
            return { files: [file], notes: [`dry run: the escalation issue body is in ${file}`] };
        }
        return { files: [], notes: [] };
    }
}

;// CONCATENATED MODULE: external "node:os"
const external_node_os_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");
var external_node_os_default = /*#__PURE__*/__nccwpck_require__.n(external_node_os_namespaceObject);
;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
;// CONCATENATED MODULE: ./src/process/reap.ts

/** Pids of live processes whose environment carries LOOPGATE_CALL_ID=<callId>. */
function findCallProcesses(callId) {
    const needle = `LOOPGATE_CALL_ID=${callId}`;
    const found = [];
    let entries;
    try {
        entries = (0,external_node_fs_namespaceObject.readdirSync)('/proc');
    }
    catch {
        return found;
    }
    for (const entry of entries) {
        if (!/^\d+$/.test(entry))
            continue;
        const pid = Number(entry);
        if (pid === process.pid)
            continue;
        try {
            const environ = (0,external_node_fs_namespaceObject.readFileSync)(`/proc/${entry}/environ`, 'latin1');
            if (environ.split('\0').includes(needle))
                found.push(pid);
        }
        catch {
            // gone, or not ours to read
        }
    }
    return found;
}
/** Kills every process still carrying the call's marker (escaped the process group with setsid). */
function killCallProcesses(callId) {
    let killed = 0;
    for (let round = 0; round < 3; round++) {
        const pids = findCallProcesses(callId);
        if (pids.length === 0)
            break;
        for (const pid of pids) {
            try {
                process.kill(pid, 'SIGKILL');
                killed++;
            }
            catch {
                // already gone
            }
        }
    }
    return killed;
}

;// CONCATENATED MODULE: ./src/process/run.ts


const DEFAULT_MAX_OUTPUT = 2_000_000;
class TailBuffer {
    max;
    text = '';
    constructor(max) {
        this.max = max;
    }
    push(chunk) {
        this.text += chunk;
        if (this.text.length > this.max * 2)
            this.text = this.text.slice(-this.max);
    }
    value() {
        return this.text.length > this.max ? this.text.slice(-this.max) : this.text;
    }
}
function killGroup(pid, sig) {
    if (!pid)
        return;
    try {
        process.kill(-pid, sig);
    }
    catch {
        // the group is already gone
    }
}
/**
 * Runs one process in its own process group. On timeout, abort or a watcher's request the whole
 * group gets SIGTERM, then SIGKILL after the grace period; processes that escaped the group but
 * carry the call marker are killed too.
 */
function runProcess(opts) {
    const started = Date.now();
    const max = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
    const grace = opts.killGraceMs ?? 2000;
    const env = { ...opts.env };
    if (opts.callId)
        env.LOOPGATE_CALL_ID = opts.callId;
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_namespaceObject.spawn)(opts.command, opts.args, {
            cwd: opts.cwd,
            env,
            detached: true,
            stdio: ['pipe', 'pipe', 'pipe'],
            uid: opts.uid,
            gid: opts.gid
        });
        const stdout = new TailBuffer(max);
        const stderr = new TailBuffer(max);
        let timedOut = false;
        let aborted = false;
        let killedByWatcher = false;
        let killing = false;
        let pending = '';
        let spawnError;
        const terminate = () => {
            if (killing)
                return;
            killing = true;
            killGroup(child.pid, 'SIGTERM');
            const hard = setTimeout(() => killGroup(child.pid, 'SIGKILL'), grace);
            hard.unref();
        };
        const timer = opts.timeoutMs && opts.timeoutMs > 0
            ? setTimeout(() => {
                timedOut = true;
                terminate();
            }, opts.timeoutMs)
            : undefined;
        const onAbort = () => {
            aborted = true;
            terminate();
        };
        if (opts.signal) {
            if (opts.signal.aborted)
                onAbort();
            else
                opts.signal.addEventListener('abort', onAbort, { once: true });
        }
        child.stdout.setEncoding('utf8');
        child.stderr.setEncoding('utf8');
        child.stdout.on('data', (chunk) => {
            stdout.push(chunk);
            if (!opts.onStdoutLine)
                return;
            pending += chunk;
            let nl = pending.indexOf('\n');
            while (nl >= 0) {
                const line = pending.slice(0, nl);
                pending = pending.slice(nl + 1);
                if (!killing && opts.onStdoutLine(line) === 'kill') {
                    killedByWatcher = true;
                    terminate();
                }
                nl = pending.indexOf('\n');
            }
        });
        child.stderr.on('data', (chunk) => stderr.push(chunk));
        child.stdin.on('error', () => undefined);
        child.on('error', (err) => {
            spawnError = err;
            if (child.pid === undefined)
                finish(null, null);
        });
        if (opts.stdin !== undefined)
            child.stdin.end(opts.stdin);
        else
            child.stdin.end();
        child.on('exit', () => {
            // Whatever the process left behind in its group or under its marker dies with the call,
            // and a descendant that still holds the pipes open cannot keep the call alive.
            killGroup(child.pid, 'SIGKILL');
            if (opts.callId)
                killCallProcesses(opts.callId);
            const drain = setTimeout(() => {
                child.stdout.destroy();
                child.stderr.destroy();
            }, 1000);
            drain.unref();
        });
        child.on('close', (code, sig) => finish(code, sig));
        let settled = false;
        function finish(code, sig) {
            if (settled)
                return;
            settled = true;
            if (timer)
                clearTimeout(timer);
            opts.signal?.removeEventListener('abort', onAbort);
            if (pending && opts.onStdoutLine && !killing)
                opts.onStdoutLine(pending);
            killGroup(child.pid, 'SIGKILL');
            if (opts.callId)
                killCallProcesses(opts.callId);
            resolve({
                exitCode: code,
                signal: sig,
                stdout: stdout.value(),
                stderr: spawnError ? `${stderr.value()}${spawnError.message}\n` : stderr.value(),
                timedOut,
                aborted,
                killedByWatcher,
                durationMs: Date.now() - started
            });
        }
    });
}

;// CONCATENATED MODULE: ./src/agents/command.ts




/** Reads `{"cost_usd": n}` from the cost file; anything else is no report. */
function readCostFile(file) {
    let text;
    try {
        text = (0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8');
    }
    catch {
        return undefined;
    }
    try {
        const data = JSON.parse(text);
        const cost = data.cost_usd;
        return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined;
    }
    catch {
        return undefined;
    }
}
/**
 * `agent: command`: the user's shell command, once per iteration, with the prompt on stdin and in
 * LOOPGATE_PROMPT_FILE. It may report its cost in LOOPGATE_COST_FILE. Non-zero exit is a failure.
 */
class CommandAgent {
    command;
    name = 'command';
    constructor(command) {
        this.command = command;
    }
    async run(call) {
        (0,external_node_fs_namespaceObject.mkdirSync)(call.callDir, { recursive: true });
        const promptFile = external_node_path_default().join(call.callDir, 'prompt.md');
        const costFile = external_node_path_default().join(call.callDir, 'cost.json');
        (0,external_node_fs_namespaceObject.writeFileSync)(promptFile, call.prompt);
        (0,external_node_fs_namespaceObject.rmSync)(costFile, { force: true });
        const r = await runProcess({
            command: '/bin/bash',
            args: ['-c', this.command],
            cwd: call.cwd,
            env: {
                ...call.env,
                LOOPGATE_PROMPT_FILE: promptFile,
                LOOPGATE_COST_FILE: costFile,
                LOOPGATE_ITERATION: String(call.iteration),
                LOOPGATE_MAX_TURNS: String(call.maxTurns),
                LOOPGATE_CALL_BUDGET_USD: String(call.callBudgetUsd)
            },
            stdin: call.prompt,
            timeoutMs: call.timeoutMs,
            signal: call.signal,
            uid: call.user?.uid,
            gid: call.user?.gid,
            callId: (0,external_node_crypto_namespaceObject.randomUUID)()
        });
        const cost = readCostFile(costFile);
        const output = `${r.stdout}${r.stderr ? `\n[stderr]\n${r.stderr}` : ''}`;
        const base = {
            exitCode: r.exitCode,
            signal: r.signal,
            costUsd: cost ?? call.callBudgetUsd,
            costSource: cost === undefined ? 'worst-case' : 'reported',
            turns: 1,
            permissionDenials: [],
            finalText: r.stdout.trim().split('\n').slice(-20).join('\n'),
            outputTail: output.slice(-8000),
            durationMs: r.durationMs,
            timedOut: r.timedOut,
            warnings: []
        };
        if (r.timedOut)
            return { ...base, status: 'failed', reason: `timeout after ${Math.round(call.timeoutMs / 1000)} s` };
        if (r.aborted)
            return { ...base, status: 'failed', reason: 'cancelled' };
        if (r.exitCode !== 0) {
            return { ...base, status: 'failed', reason: r.exitCode === null ? `killed by ${r.signal}` : `exit code ${r.exitCode}` };
        }
        return { ...base, status: 'claimed-done', reason: 'exit code 0' };
    }
}

;// CONCATENATED MODULE: ./src/agents/index.ts

/** Bridges the engine's view of a call to an adapter's full AgentCall. */
function agentRunner(opts) {
    return {
        run: (iteration, prompt, timeoutMs, signal) => opts.adapter.run({
            iteration,
            prompt,
            cwd: opts.cwd,
            timeoutMs,
            maxTurns: opts.maxTurns,
            callBudgetUsd: opts.callBudgetUsd,
            env: opts.env,
            callDir: external_node_path_default().join(opts.callsDir, `call-${iteration}`),
            signal,
            user: opts.user
        })
    };
}

;// CONCATENATED MODULE: ./src/gate/fingerprint.ts

/** Removes what changes between runs of the same failure: colours, times, addresses, paths, pids. */
function normaliseMessage(text) {
    return text
        .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
        .replace(/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b/g, '<time>')
        .replace(/\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b/g, '<time>')
        .replace(/\b0x[0-9a-fA-F]+\b/g, '<addr>')
        .replace(/(?:\/private)?\/(?:tmp|var\/folders|var\/tmp|home\/runner\/work\/_temp)\/[^\s:'")]*/g, '<tmp>')
        .replace(/[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp\\[^\s:'")]*/g, '<tmp>')
        .replace(/\b(?:pid|PID|process)[ =:#]*\d+\b/g, 'pid <n>')
        .replace(/\(?\b\d+(?:\.\d+)?\s*(?:ms|s|sec|seconds|µs|us|ns)\b\)?/g, '<dur>')
        .replace(/\s+/g, ' ')
        .trim();
}
/** The fingerprint: a short hash of the sorted failing ids with their normalised messages. */
function fingerprintOf(failures) {
    if (failures.length === 0)
        return null;
    const lines = failures.map((f) => `${normaliseMessage(f.id)}\t${normaliseMessage(f.message)}`).sort();
    return (0,external_node_crypto_namespaceObject.createHash)('sha256').update(lines.join('\n')).digest('hex').slice(0, 12);
}
const FAILURE_LINE = [
    /^\s*FAILED\s+(.+?)(?:\s+-\s+(.*))?$/, // pytest short summary
    /^\s*ERROR\s+(.+?)(?:\s+-\s+(.*))?$/, // pytest errors
    /^\s*(?:✕|✗|×)\s+(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$/, // jest / vitest
    /^\s*not ok\s+\d+\s*-?\s*(.*?)(?:\s+#\s*(.*))?$/, // TAP
    /^\s*--- FAIL:\s+(\S+)/, // go test
    /^\s*FAIL\s+(\S+\.(?:test|spec)\.[cm]?[jt]sx?)\b/ // jest suite line
];
const MAX_FAILURES = 500;
/**
 * Failures read from plain output (when no report is set): FAILED / ERROR / ✕ / `not ok` lines and
 * the first message line that follows each.
 */
function failuresFromOutput(output) {
    const lines = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n/);
    const seen = new Set();
    const failures = [];
    for (let i = 0; i < lines.length && failures.length < MAX_FAILURES; i++) {
        for (const pattern of FAILURE_LINE) {
            const m = pattern.exec(lines[i]);
            if (!m || !m[1]?.trim())
                continue;
            const id = m[1].trim();
            let message = (m[2] ?? '').trim();
            if (!message) {
                const next = lines.slice(i + 1, i + 6).find((l) => l.trim() !== '' && !FAILURE_LINE.some((p) => p.test(l)));
                message = next?.trim().replace(/^#\s*/, '') ?? '';
            }
            const key = `${id}\t${message}`;
            if (!seen.has(key)) {
                seen.add(key);
                failures.push({ id, message: normaliseMessage(message).slice(0, 500) });
            }
            break;
        }
    }
    return failures;
}

;// CONCATENATED MODULE: ./src/gate/shell-gate.ts



/** Runs a shell command and turns its exit status and output into a verdict. */
async function runGateCommand(opts) {
    const r = await runProcess({
        command: '/bin/bash',
        args: ['-c', opts.command],
        cwd: opts.cwd,
        env: opts.env,
        timeoutMs: opts.timeoutMs,
        signal: opts.signal,
        callId: (0,external_node_crypto_namespaceObject.randomUUID)(),
        maxOutputChars: 4_000_000
    });
    const output = `${r.stdout}\n${r.stderr}`;
    const passed = r.exitCode === 0 && !r.timedOut && !r.aborted;
    const failures = passed ? [] : failuresFromOutput(output);
    const reason = r.timedOut
        ? `timed out after ${Math.round(opts.timeoutMs / 1000)} s`
        : r.aborted
            ? 'cancelled'
            : r.exitCode === null
                ? `killed by ${r.signal}`
                : `exit ${r.exitCode}`;
    const fingerprint = passed ? null : (fingerprintOf(failures) ?? fingerprintOf([{ id: 'gate', message: reason }]));
    return {
        passed,
        reason,
        exitCode: r.exitCode,
        timedOut: r.timedOut,
        failures,
        fingerprint,
        outputTail: output.slice(-20000),
        durationMs: r.durationMs
    };
}
/** The foundation gate: `gate-command` in the workspace itself. The protected gate replaces it. */
class WorkspaceGate {
    opts;
    constructor(opts) {
        this.opts = opts;
    }
    run() {
        return runGateCommand(this.opts);
    }
}

;// CONCATENATED MODULE: ./src/git/git.ts

class GitError extends Error {
    args;
    result;
    constructor(args, result) {
        super(`git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
        this.args = args;
        this.result = result;
        this.name = 'GitError';
    }
}
/**
 * Configuration that neutralises whatever the agent may have planted in the repository's config:
 * hooks, fsmonitor, credential helpers, pagers, editors and external diff tools. Filters are
 * neutralised per name by `filterOverrides`.
 */
const HARDENED_CONFIG = [
    'core.hooksPath=/dev/null',
    'core.fsmonitor=false',
    'core.untrackedCache=false',
    'core.sshCommand=false',
    'core.pager=cat',
    'core.editor=true',
    'core.askPass=',
    'credential.helper=',
    'diff.external=',
    'safe.directory=*',
    'commit.gpgSign=false',
    'tag.gpgSign=false',
    'gc.auto=0',
    'maintenance.auto=false'
];
/** The environment of loopgate's own git processes: no global or system config, no prompts. */
function gitEnv(base = process.env) {
    const env = {};
    for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR'])
        if (base[key])
            env[key] = base[key];
    env.GIT_CONFIG_NOSYSTEM = '1';
    env.GIT_CONFIG_GLOBAL = '/dev/null';
    env.GIT_TERMINAL_PROMPT = '0';
    env.GIT_AUTHOR_NAME = 'loopgate';
    env.GIT_AUTHOR_EMAIL = 'loopgate@users.noreply.github.com';
    env.GIT_COMMITTER_NAME = 'loopgate';
    env.GIT_COMMITTER_EMAIL = 'loopgate@users.noreply.github.com';
    env.LC_ALL = 'C';
    return env;
}
/** Runs one git command with the hardened configuration. Throws GitError on an unexpected exit. */
function git(args, opts) {
    const configArgs = [...HARDENED_CONFIG, ...(opts.config ?? [])].flatMap((c) => ['-c', c]);
    const fullArgs = [...configArgs, ...args];
    return new Promise((resolve, reject) => {
        const child = (0,external_node_child_process_namespaceObject.execFile)('git', fullArgs, { cwd: opts.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
            const exitCode = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
            const result = { stdout, stderr, exitCode };
            if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode))
                resolve(result);
            else
                reject(new GitError(args, result));
        });
        if (opts.input !== undefined)
            child.stdin?.end(opts.input);
        else
            child.stdin?.end();
    });
}

;// CONCATENATED MODULE: ./src/git/workspace.ts



const TRAILER_RUN = 'Loopgate-Run';
const TRAILER_ITERATION = 'Loopgate-Iteration';
function pathspecExcludes(paths) {
    return paths.map((p) => `:(exclude,literal)${p}`);
}
function parseNumstat(text) {
    const files = [];
    let insertions = 0;
    let deletions = 0;
    for (const line of text.split('\n')) {
        if (!line)
            continue;
        const [add, del, ...rest] = line.split('\t');
        files.push(rest.join('\t'));
        insertions += add === '-' ? 0 : Number(add);
        deletions += del === '-' ? 0 : Number(del);
    }
    return { files, stat: { files: files.length, insertions, deletions } };
}
/**
 * The agent's workspace as loopgate's git sees it. The progress file is never committed; the
 * features file is committed but left out of the progress comparison.
 */
class GitWorkspace {
    dir;
    progressFile;
    featuresFile;
    gitConfig;
    constructor(dir, progressFile, featuresFile, gitConfig = () => []) {
        this.dir = dir;
        this.progressFile = progressFile;
        this.featuresFile = featuresFile;
        this.gitConfig = gitConfig;
    }
    run(args, okCodes) {
        return git(args, { cwd: this.dir, okCodes, config: this.gitConfig() });
    }
    /** Keeps the progress file out of `git status` and commits. */
    async prepare() {
        const gitDir = (await this.run(['rev-parse', '--absolute-git-dir'])).stdout.trim();
        const excludeFile = external_node_path_default().join(gitDir, 'info', 'exclude');
        (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(excludeFile), { recursive: true });
        const current = (0,external_node_fs_namespaceObject.existsSync)(excludeFile) ? (0,external_node_fs_namespaceObject.readFileSync)(excludeFile, 'utf8') : '';
        const line = `/${this.progressFile}`;
        if (!current.split('\n').includes(line))
            (0,external_node_fs_namespaceObject.appendFileSync)(excludeFile, `${current && !current.endsWith('\n') ? '\n' : ''}${line}\n`);
    }
    async head() {
        return (await this.run(['rev-parse', 'HEAD'])).stdout.trim();
    }
    async commitIteration(runId, iteration) {
        await this.run(['add', '-A']);
        let staged = await this.run(['diff', '--cached', '--numstat', '--no-renames']);
        if (parseNumstat(staged.stdout).files.includes(this.progressFile)) {
            // The user tracks the progress file: its notes still never go into loopgate's commits.
            await this.run(['reset', '-q', '--', this.progressFile]);
            staged = await this.run(['diff', '--cached', '--numstat', '--no-renames']);
        }
        const all = parseNumstat(staged.stdout);
        if (all.files.length === 0)
            return { commit: null, changedFiles: [], stat: { files: 0, insertions: 0, deletions: 0 } };
        const message = `loopgate: iteration ${iteration}\n\n${TRAILER_RUN}: ${runId}\n${TRAILER_ITERATION}: ${iteration}\n`;
        await this.run(['commit', '-q', '--no-verify', '-m', message]);
        const commit = await this.head();
        const counted = all.files.filter((f) => f !== this.featuresFile && f !== this.progressFile);
        const stat = counted.length === all.files.length
            ? all.stat
            : parseNumstat(staged.stdout
                .split('\n')
                .filter((l) => counted.includes(l.split('\t').slice(2).join('\t')))
                .join('\n')).stat;
        return { commit, changedFiles: counted, stat };
    }
    async hasChangesSince(commit) {
        const excludes = pathspecExcludes([this.progressFile, ...(this.featuresFile ? [this.featuresFile] : [])]);
        const r = await this.run(['diff', '--quiet', commit, 'HEAD', '--', '.', ...excludes], [1]);
        return r.exitCode === 1;
    }
}

;// CONCATENATED MODULE: ./src/isolation/env.ts
/** Variables every agent gets, when set on the runner. */
const BASE_ALLOW = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'TMPDIR', 'CI', 'USER', 'SHELL'];
/** Configuration variables each CLI documents, passed through when set. */
const AGENT_CONFIG_VARS = {
    claude: [
        'ANTHROPIC_BASE_URL',
        'ANTHROPIC_MODEL',
        'ANTHROPIC_SMALL_FAST_MODEL',
        'CLAUDE_CODE_USE_BEDROCK',
        'CLAUDE_CODE_USE_VERTEX',
        'CLAUDE_CONFIG_DIR',
        'DISABLE_AUTOUPDATER',
        'DISABLE_TELEMETRY',
        'DISABLE_ERROR_REPORTING',
        'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC'
    ],
    codex: ['OPENAI_BASE_URL', 'CODEX_HOME', 'RUST_LOG'],
    command: []
};
/** Never passed to an agent or a gate, whatever an allow-list says. */
const DENY = [/^INPUT_/i, /^ACTIONS_/i, /^GITHUB_TOKEN$/i, /^GH_TOKEN$/i, /^ACTIONS_ID_TOKEN_REQUEST_/i, /^RUNNER_/i, /TOKEN/i, /SECRET/i, /PASSWORD/i];
function isDenied(name) {
    return DENY.some((re) => re.test(name));
}
/** Builds the agent's environment from an allow-list; secrets and runner internals never pass. */
function agentEnv(source, opts) {
    const env = {};
    const allowed = [...BASE_ALLOW, ...(AGENT_CONFIG_VARS[opts.agent] ?? []), ...(opts.extra ?? [])];
    for (const name of allowed) {
        if (isDenied(name))
            continue;
        const value = source[name];
        if (value !== undefined)
            env[name] = value;
    }
    if (opts.apiKey)
        env[opts.apiKey.name] = opts.apiKey.value;
    Object.assign(env, opts.set ?? {});
    return env;
}
/** The gate's environment: the same allow-list, no API key. */
function gateEnv(source, extra = []) {
    const env = agentEnv(source, { agent: 'command', extra });
    env.CI = env.CI ?? 'true';
    return env;
}

;// CONCATENATED MODULE: ./src/loop/attempt-log.ts


/** The attempt log: one JSON line per event, flushed as it is written. */
class AttemptLog {
    file;
    entries = [];
    constructor(file) {
        this.file = file;
        (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(file), { recursive: true, mode: 0o700 });
    }
    write(entry) {
        const record = { at: new Date().toISOString(), ...entry };
        this.entries.push(record);
        const fd = (0,external_node_fs_namespaceObject.openSync)(this.file, 'a', 0o600);
        try {
            (0,external_node_fs_namespaceObject.writeSync)(fd, `${JSON.stringify(record)}\n`);
            (0,external_node_fs_namespaceObject.fsyncSync)(fd);
        }
        finally {
            (0,external_node_fs_namespaceObject.closeSync)(fd);
        }
    }
}

;// CONCATENATED MODULE: ./src/agents/types.ts
function emptyResult(partial) {
    return {
        exitCode: null,
        signal: null,
        costUsd: 0,
        costSource: 'worst-case',
        turns: 0,
        permissionDenials: [],
        finalText: '',
        outputTail: '',
        durationMs: 0,
        timedOut: false,
        warnings: [],
        ...partial
    };
}

;// CONCATENATED MODULE: ./src/loop/breakers.ts
/** Counts the in-a-row conditions that stop a loop which is no longer getting anywhere. */
class Breakers {
    limits;
    emptyInARow = 0;
    agentFailuresInARow = 0;
    tamperings = 0;
    sameFailureInARow = 0;
    lastFingerprint = null;
    constructor(limits) {
        this.limits = limits;
    }
    /** Records one iteration; returns the breaker that fired, if any. */
    record(signals) {
        this.emptyInARow = signals.emptyDiff ? this.emptyInARow + 1 : 0;
        this.agentFailuresInARow = signals.agentFailed ? this.agentFailuresInARow + 1 : 0;
        if (signals.tampered)
            this.tamperings++;
        if (signals.fingerprint !== undefined) {
            if (signals.fingerprint !== null && signals.fingerprint === this.lastFingerprint)
                this.sameFailureInARow++;
            else
                this.sameFailureInARow = signals.fingerprint === null ? 0 : 1;
            this.lastFingerprint = signals.fingerprint;
        }
        if (this.tamperings >= this.limits.tamperLimit)
            return 'protected-tampering';
        if (this.agentFailuresInARow >= this.limits.agentFailureLimit)
            return 'agent-failure';
        if (this.sameFailureInARow >= this.limits.sameFailureLimit)
            return 'same-failure';
        if (this.emptyInARow >= this.limits.noProgressLimit)
            return 'no-progress';
        return null;
    }
    /** Seeds the last fingerprint from a previous run (resume). */
    seedFingerprint(fingerprint) {
        this.lastFingerprint = fingerprint;
        this.sameFailureInARow = fingerprint ? 1 : 0;
    }
}

;// CONCATENATED MODULE: ./src/loop/prompt.ts
/** Each iteration starts with fresh context: the task, the notes so far, and the last evidence. */
function buildPrompt(parts) {
    const sections = [
        parts.task.trim(),
        [
            '---',
            `You are in iteration ${parts.iteration} of at most ${parts.maxIterations} of an automated loop (loopgate).`,
            'loopgate, not you, decides when the work is done: it commits your changes and runs the protected tests',
            'from the base branch in a clean checkout. Changes to tests or test configuration are reverted and rejected.',
            `Keep short notes for the next iteration in ${parts.progressFile}.`
        ].join('\n')
    ];
    if (parts.progress.trim()) {
        sections.push(`## Progress so far (${parts.progressFile})\n${parts.progress.trim()}`);
    }
    if (parts.evidence.length > 0) {
        sections.push(`## Evidence from the last iteration\n${parts.evidence.map((e) => `- ${e}`).join('\n')}`);
    }
    return `${sections.join('\n\n')}\n`;
}

;// CONCATENATED MODULE: ./src/loop/engine.ts



const MAX_EVIDENCE_FAILURES = 20;
function describeVerdict(verdict) {
    if (verdict.passed)
        return `gate passed (${verdict.reason})`;
    const fp = verdict.fingerprint ? ` [${verdict.fingerprint}]` : '';
    const count = verdict.failures.length > 0 ? `, ${verdict.failures.length} failing` : '';
    return `gate failed (${verdict.reason})${fp}${count}`;
}
function gateEvidence(verdict) {
    const lines = [`the protected gate failed: ${verdict.reason}${verdict.fingerprint ? ` (fingerprint ${verdict.fingerprint})` : ''}`];
    for (const failure of verdict.failures.slice(0, MAX_EVIDENCE_FAILURES)) {
        lines.push(`failing: ${failure.id}${failure.message ? ` — ${failure.message}` : ''}`);
    }
    if (verdict.failures.length > MAX_EVIDENCE_FAILURES) {
        lines.push(`… and ${verdict.failures.length - MAX_EVIDENCE_FAILURES} more failing tests`);
    }
    if (verdict.failures.length === 0 && verdict.outputTail.trim()) {
        lines.push(`gate output (end): ${verdict.outputTail.trim().split('\n').slice(-8).join(' | ').slice(0, 1500)}`);
    }
    return lines;
}
const engine_usd = (n) => `$${n.toFixed(2)}`;
/**
 * The bounded outer loop. Each iteration: admission → agent call → guards → loopgate's commit →
 * gate → breakers → log. Nothing the agent writes decides when it stops.
 */
async function runLoop(config, deps) {
    const { clock, ledger, log, progress } = deps;
    const report = deps.report ?? (() => undefined);
    const signal = deps.signal ?? new AbortController().signal;
    const startedAt = clock.now();
    const breakers = new Breakers({
        noProgressLimit: config.noProgressLimit,
        sameFailureLimit: config.sameFailureLimit,
        agentFailureLimit: config.agentFailureLimit ?? 3,
        tamperLimit: config.tamperLimit ?? 2
    });
    if (config.seedFingerprint !== undefined)
        breakers.seedFingerprint(config.seedFingerprint);
    progress.ensure();
    const startCommit = await deps.workspace.head();
    let headCommit = startCommit;
    const iterations = [];
    let evidence = [...(config.initialEvidence ?? [])];
    let lastVerdict = null;
    let lastGatedCommit = null;
    let claimedDone = 0;
    let gateAgreed = 0;
    const maxCalls = Math.min(config.maxIterations, Math.floor(config.spendCeilingUsd / config.callBudgetUsd + 1e-9));
    const worstCase = `Worst-case spend for this run: ${engine_usd(config.spendCeilingUsd)} (spend-ceiling-usd). A call starts only while spent + call-budget-usd (${engine_usd(config.callBudgetUsd)}) ≤ ${engine_usd(config.spendCeilingUsd)}, so at most ${maxCalls} calls; a call that reports no cost is charged its full budget.`;
    report(worstCase);
    log.write({
        type: 'run-start',
        runId: config.runId,
        startCommit,
        worstCaseUsd: config.spendCeilingUsd,
        limits: {
            maxIterations: config.maxIterations,
            callBudgetUsd: config.callBudgetUsd,
            spendCeilingUsd: config.spendCeilingUsd,
            callTimeoutMs: config.callTimeoutMs,
            timeLimitMs: config.timeLimitMs,
            noProgressLimit: config.noProgressLimit,
            sameFailureLimit: config.sameFailureLimit,
            period: config.period ?? null
        }
    });
    const finish = (stopReason, verifiedCommit = null) => {
        progress.appendStop(stopReason);
        const outcome = {
            stopReason,
            iterations,
            spentUsd: ledger.spentUsd,
            startCommit,
            headCommit,
            verifiedCommit,
            lastVerdict,
            lastEvidence: evidence,
            claimedDone,
            gateAgreed,
            startedAt,
            endedAt: clock.now()
        };
        log.write({
            type: 'stop',
            stopReason,
            iterations: iterations.length,
            spentUsd: ledger.spentUsd,
            verifiedCommit,
            headCommit,
            claimedDone,
            gateAgreed
        });
        report(`Stopped: ${stopReason} after ${iterations.length} iteration(s), ${engine_usd(ledger.spentUsd)} spent.`);
        return outcome;
    };
    const admit = (iteration) => {
        if (signal.aborted)
            return 'cancelled';
        if (iteration > config.maxIterations)
            return 'max-iterations';
        if (clock.now() - startedAt >= config.timeLimitMs)
            return 'time-limit';
        if (ledger.spentUsd + config.callBudgetUsd > config.spendCeilingUsd + 1e-9)
            return 'spend-ceiling';
        if (config.period && config.period.spentBeforeUsd + ledger.spentUsd + config.callBudgetUsd > config.period.ceilingUsd + 1e-9) {
            return 'period-ceiling';
        }
        return null;
    };
    for (let iteration = 1;; iteration++) {
        const refused = admit(iteration);
        if (refused) {
            log.write({ type: 'admission', iteration, refused, spentUsd: ledger.spentUsd });
            return finish(refused);
        }
        const iterationStart = clock.now();
        for (const guard of deps.guards)
            await guard.beforeCall?.(iteration);
        const prompt = buildPrompt({
            task: config.task,
            progress: progress.read(),
            evidence,
            iteration,
            maxIterations: config.maxIterations,
            progressFile: config.progressFileName
        });
        const remaining = config.timeLimitMs - (clock.now() - startedAt);
        const timeoutMs = Math.max(1, Math.min(config.callTimeoutMs, remaining));
        ledger.begin(iteration, config.callBudgetUsd);
        let result;
        try {
            result = await deps.agent.run(iteration, prompt, timeoutMs, signal);
        }
        catch (err) {
            result = emptyResult({ status: 'failed', reason: `adapter error: ${err.message}` });
        }
        const reportedCost = result.costSource === 'worst-case' ? undefined : result.costUsd;
        const charged = ledger.charge(iteration, reportedCost, result.costSource);
        result = { ...result, costUsd: charged.usd, costSource: charged.source };
        if (result.status === 'claimed-done')
            claimedDone++;
        const rejected = [];
        const notes = [];
        let tampered = false;
        for (const guard of deps.guards) {
            const r = await guard.afterCall(iteration);
            rejected.push(...r.rejected);
            notes.push(...(r.notes ?? []));
            tampered ||= r.tampered;
        }
        const change = await deps.workspace.commitIteration(config.runId, iteration);
        if (change.commit)
            headCommit = change.commit;
        const emptyDiff = change.changedFiles.length === 0;
        const cancelledNow = signal.aborted;
        let verdict = lastVerdict;
        let gateRan = false;
        if (!cancelledNow && headCommit !== lastGatedCommit) {
            verdict = await deps.gate.run(headCommit, iteration);
            lastGatedCommit = headCommit;
            gateRan = true;
        }
        lastVerdict = verdict;
        let flipsRejected = false;
        for (const guard of deps.guards) {
            const r = await guard.afterGate?.(iteration, gateRan ? verdict : null);
            if (r && r.rejected.length > 0) {
                rejected.push(...r.rejected);
                flipsRejected = true;
            }
        }
        const changedSinceStart = headCommit !== startCommit && (await deps.workspace.hasChangesSince(startCommit));
        const agentFailed = result.status !== 'claimed-done';
        const nextEvidence = [];
        if (agentFailed)
            nextEvidence.push(`the agent call ended without success: ${result.reason}`);
        nextEvidence.push(...rejected);
        if (emptyDiff)
            nextEvidence.push('the last iteration changed no files');
        if (verdict && !verdict.passed)
            nextEvidence.push(...gateEvidence(verdict));
        if (verdict?.passed && !changedSinceStart)
            nextEvidence.push('the gate passes but nothing has been changed yet');
        let decision = null;
        const verified = !cancelledNow && verdict?.passed === true && changedSinceStart && !flipsRejected;
        if (cancelledNow)
            decision = 'cancelled';
        else if (verified)
            decision = 'verified';
        else if (verdict?.passed && !changedSinceStart && result.status === 'claimed-done')
            decision = 'nothing-to-do';
        const breaker = breakers.record({
            emptyDiff,
            agentFailed,
            tampered,
            fingerprint: gateRan && !emptyDiff ? (verdict?.fingerprint ?? null) : undefined
        });
        decision ??= breaker;
        if (verified && result.status === 'claimed-done')
            gateAgreed++;
        const record = {
            iteration,
            startedAt: iterationStart,
            endedAt: clock.now(),
            agent: result,
            chargedUsd: charged.usd,
            spentUsd: ledger.spentUsd,
            commit: change.commit,
            changedFiles: change.changedFiles,
            stat: change.stat,
            gate: verdict,
            gateRan,
            rejected,
            tampered,
            evidence: nextEvidence,
            decision: decision ?? 'continue'
        };
        iterations.push(record);
        log.write({
            type: 'iteration',
            iteration,
            startedAt: new Date(iterationStart).toISOString(),
            durationMs: record.endedAt - iterationStart,
            agent: {
                status: result.status,
                reason: result.reason,
                exitCode: result.exitCode,
                signal: result.signal,
                costUsd: result.costUsd,
                costSource: result.costSource,
                turns: result.turns,
                tokens: result.tokens ?? null,
                sessionId: result.sessionId ?? null,
                timedOut: result.timedOut,
                durationMs: result.durationMs,
                permissionDenials: result.permissionDenials,
                finalText: result.finalText.slice(0, 2000),
                outputTail: result.outputTail.slice(-4000),
                warnings: result.warnings
            },
            spentUsd: ledger.spentUsd,
            commit: change.commit,
            diff: { ...change.stat, changedFiles: change.changedFiles.slice(0, 200) },
            gate: verdict
                ? {
                    ran: gateRan,
                    passed: verdict.passed,
                    reason: verdict.reason,
                    exitCode: verdict.exitCode,
                    timedOut: verdict.timedOut,
                    fingerprint: verdict.fingerprint,
                    failures: verdict.failures.slice(0, 200),
                    testsRun: verdict.testsRun ?? null,
                    skipped: verdict.skipped ?? null,
                    durationMs: verdict.durationMs,
                    outputTail: verdict.outputTail.slice(-4000)
                }
                : null,
            rejected,
            tampered,
            notes,
            breakers: {
                emptyInARow: breakers.emptyInARow,
                sameFailureInARow: breakers.sameFailureInARow,
                agentFailuresInARow: breakers.agentFailuresInARow,
                tamperings: breakers.tamperings
            },
            decision: record.decision
        });
        progress.append(progressLine(record, config));
        if (deps.onIteration)
            deps.onIteration(record);
        else
            report(progressLine(record, config));
        evidence = nextEvidence;
        if (decision)
            return finish(decision, decision === 'verified' ? headCommit : null);
    }
}
function progressLine(record, config) {
    const a = record.agent;
    const parts = [
        `iteration ${record.iteration}`,
        `agent ${a.status}${a.status === 'claimed-done' ? '' : ` (${a.reason})`}, ${engine_usd(record.chargedUsd)} ${a.costSource}, ${a.turns} turns`,
        record.changedFiles.length === 0
            ? 'no files changed'
            : `${record.changedFiles.length} file(s) changed +${record.stat.insertions}/-${record.stat.deletions}`,
        record.gate ? (record.gateRan ? describeVerdict(record.gate) : `${describeVerdict(record.gate)} (unchanged tree)`) : 'gate not run'
    ];
    if (record.rejected.length > 0)
        parts.push(`${record.rejected.length} edit(s) rejected`);
    parts.push(`spent ${engine_usd(record.spentUsd)} of ${engine_usd(config.spendCeilingUsd)}`);
    return `- ${parts.join(' · ')}`;
}

;// CONCATENATED MODULE: ./src/loop/features.ts

function parseFeatures(text) {
    let data;
    try {
        data = JSON.parse(text);
    }
    catch (err) {
        return `invalid JSON (${err.message})`;
    }
    if (!Array.isArray(data))
        return 'not a JSON list';
    for (const [i, item] of data.entries()) {
        if (typeof item !== 'object' || item === null || Array.isArray(item))
            return `item ${i} is not an object`;
        if (typeof item.passes !== 'boolean')
            return `item ${i} has no boolean "passes"`;
    }
    return data;
}
function withoutPasses(feature) {
    const { passes: _passes, ...rest } = feature;
    return JSON.stringify(rest);
}
function label(feature, index) {
    const name = feature.id ?? feature.name ?? feature.description ?? feature.test;
    return typeof name === 'string' ? name : `#${index}`;
}
/** The flips from `before` to `after`, or why `after` is not a flip-only edit of `before`. */
function diffFeatures(before, after) {
    if (before.length !== after.length)
        return { error: `the list changed length (${before.length} → ${after.length})` };
    const flips = [];
    for (let i = 0; i < before.length; i++) {
        if (withoutPasses(before[i]) !== withoutPasses(after[i]))
            return { error: `${label(before[i], i)} was edited beyond "passes"` };
        if (before[i].passes && !after[i].passes)
            return { error: `${label(before[i], i)} went from passing to failing` };
        if (!before[i].passes && after[i].passes)
            flips.push(i);
    }
    return { flips };
}
function testPassed(test, verdict) {
    if (!verdict || verdict.timedOut)
        return false;
    if (verdict.passed)
        return true;
    if (!test || verdict.failures.length === 0)
        return false;
    return !verdict.failures.some((f) => f.id.includes(test) || f.message.includes(test));
}
/**
 * The flip-only checklist: after each call only `passes` false→true survives, and a flip stays only
 * when its test passes in that iteration's gate. Anything else is restored and noted.
 */
class FeaturesGuard {
    file;
    displayName;
    snapshot = null;
    pendingFlips = [];
    constructor(file, displayName) {
        this.file = file;
        this.displayName = displayName;
    }
    async beforeCall() {
        this.snapshot = (0,external_node_fs_namespaceObject.existsSync)(this.file) ? (0,external_node_fs_namespaceObject.readFileSync)(this.file, 'utf8') : null;
        this.pendingFlips = [];
    }
    async afterCall() {
        const current = (0,external_node_fs_namespaceObject.existsSync)(this.file) ? (0,external_node_fs_namespaceObject.readFileSync)(this.file, 'utf8') : null;
        if (current === this.snapshot)
            return { rejected: [], tampered: false };
        if (this.snapshot === null) {
            return { rejected: [], tampered: false, notes: [`${this.displayName} was created by the agent`] };
        }
        const before = parseFeatures(this.snapshot);
        if (typeof before === 'string')
            return { rejected: [], tampered: false };
        const after = current === null ? 'the file was deleted' : parseFeatures(current);
        const diff = typeof after === 'string' ? { error: after } : diffFeatures(before, after);
        if ('error' in diff) {
            (0,external_node_fs_namespaceObject.writeFileSync)(this.file, this.snapshot);
            return {
                rejected: [`rejected: ${this.displayName} may only flip "passes" from false to true; ${diff.error}. It was restored.`],
                tampered: false
            };
        }
        this.pendingFlips = diff.flips;
        return { rejected: [], tampered: false, notes: diff.flips.map((i) => `flip claimed: ${label(before[i], i)}`) };
    }
    async afterGate(_iteration, verdict) {
        if (this.pendingFlips.length === 0 || this.snapshot === null)
            return { rejected: [], tampered: false };
        const current = parseFeatures((0,external_node_fs_namespaceObject.readFileSync)(this.file, 'utf8'));
        if (typeof current === 'string')
            return { rejected: [], tampered: false };
        const reverted = [];
        for (const i of this.pendingFlips) {
            if (!testPassed(current[i].test, verdict)) {
                current[i] = { ...current[i], passes: false };
                reverted.push(label(current[i], i));
            }
        }
        this.pendingFlips = [];
        if (reverted.length === 0)
            return { rejected: [], tampered: false };
        (0,external_node_fs_namespaceObject.writeFileSync)(this.file, `${JSON.stringify(current, null, 2)}\n`);
        return {
            rejected: [`rejected: feature flips not verified by the gate were reverted: ${reverted.join(', ')}`],
            tampered: false
        };
    }
    /** True when every flip claimed this iteration was verified (nothing pending, nothing reverted). */
    get unverifiedFlips() {
        return this.pendingFlips.length;
    }
}

;// CONCATENATED MODULE: ./src/loop/ledger.ts


/**
 * The run's spend ledger: append-only JSON Lines outside the workspace, each entry flushed to disk
 * before the next step. A call that started without a charge is worth its full budget.
 */
class Ledger {
    file;
    spent = 0;
    openCall = null;
    constructor(file) {
        this.file = file;
        (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(file), { recursive: true, mode: 0o700 });
        if ((0,external_node_fs_namespaceObject.existsSync)(file)) {
            const summary = Ledger.summarise((0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8'));
            this.spent = summary.chargedUsd;
        }
    }
    get spentUsd() {
        return this.spent;
    }
    get inFlight() {
        return this.openCall;
    }
    append(entry) {
        const fd = (0,external_node_fs_namespaceObject.openSync)(this.file, 'a', 0o600);
        try {
            (0,external_node_fs_namespaceObject.writeSync)(fd, `${JSON.stringify(entry)}\n`);
            (0,external_node_fs_namespaceObject.fsyncSync)(fd);
        }
        finally {
            (0,external_node_fs_namespaceObject.closeSync)(fd);
        }
    }
    begin(iteration, budgetUsd, at = new Date()) {
        this.openCall = { iteration, budgetUsd };
        this.append({ type: 'call-start', at: at.toISOString(), iteration, budgetUsd });
    }
    /** Charges the open call. A missing or invalid cost is charged the full call budget. */
    charge(iteration, usd, source, at = new Date(), note) {
        const budget = this.openCall?.budgetUsd ?? 0;
        const valid = usd !== undefined && Number.isFinite(usd) && usd >= 0;
        const charged = valid ? usd : budget;
        const chargedSource = valid ? source : 'worst-case';
        this.append({ type: 'charge', at: at.toISOString(), iteration, usd: charged, source: chargedSource, note });
        this.spent += charged;
        this.openCall = null;
        return { usd: charged, source: chargedSource };
    }
    /** Reads a ledger file written by a process that may have died mid-call. */
    static summarise(text) {
        let chargedUsd = 0;
        const open = new Map();
        for (const line of text.split('\n')) {
            if (!line.trim())
                continue;
            let entry;
            try {
                entry = JSON.parse(line);
            }
            catch {
                continue;
            }
            if (entry.type === 'call-start')
                open.set(entry.iteration, entry.budgetUsd);
            else if (entry.type === 'charge') {
                chargedUsd += entry.usd;
                open.delete(entry.iteration);
            }
        }
        return { chargedUsd, openCalls: [...open].map(([iteration, budgetUsd]) => ({ iteration, budgetUsd })) };
    }
    /** Charges every call that started but never got a charge (the process died). Returns the total. */
    static settleOpenCalls(file, note) {
        if (!(0,external_node_fs_namespaceObject.existsSync)(file))
            return 0;
        const { openCalls } = Ledger.summarise((0,external_node_fs_namespaceObject.readFileSync)(file, 'utf8'));
        let added = 0;
        for (const call of openCalls) {
            const entry = {
                type: 'charge',
                at: new Date().toISOString(),
                iteration: call.iteration,
                usd: call.budgetUsd,
                source: 'worst-case',
                note
            };
            (0,external_node_fs_namespaceObject.appendFileSync)(file, `${JSON.stringify(entry)}\n`);
            added += call.budgetUsd;
        }
        return added;
    }
}

;// CONCATENATED MODULE: ./src/loop/progress.ts


/** The notes file carried between fresh-context iterations. loopgate appends one line per iteration. */
class ProgressFile {
    file;
    constructor(file) {
        this.file = file;
    }
    /** Creates the file (and its folder) so the agent can add notes from the first call on. */
    ensure() {
        (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(this.file), { recursive: true });
        if (!(0,external_node_fs_namespaceObject.existsSync)(this.file))
            (0,external_node_fs_namespaceObject.appendFileSync)(this.file, '');
    }
    read() {
        try {
            return (0,external_node_fs_namespaceObject.readFileSync)(this.file, 'utf8');
        }
        catch {
            return '';
        }
    }
    append(line) {
        (0,external_node_fs_namespaceObject.mkdirSync)(external_node_path_default().dirname(this.file), { recursive: true });
        const current = (0,external_node_fs_namespaceObject.existsSync)(this.file) ? (0,external_node_fs_namespaceObject.readFileSync)(this.file, 'utf8') : '';
        const sep = current === '' || current.endsWith('\n') ? '' : '\n';
        (0,external_node_fs_namespaceObject.appendFileSync)(this.file, `${sep}${line.replace(/\n/g, ' ')}\n`);
    }
    /** The last line, always written by loopgate, names the control that fired. */
    appendStop(reason) {
        this.append(stopLine(reason));
    }
}
function stopLine(reason) {
    return `stop-reason: ${reason}`;
}
/** The stop reason named by the file's last line, if it is one of ours. */
function lastStopReason(text) {
    const lines = text.trimEnd().split('\n');
    const last = lines[lines.length - 1] ?? '';
    const match = /^stop-reason: (\S+)$/.exec(last);
    return match ? match[1] : null;
}

;// CONCATENATED MODULE: ./src/loop/types.ts
const systemClock = { now: () => Date.now() };

;// CONCATENATED MODULE: ./src/run.ts
















function runDirFor(tempDir, loopId, runId) {
    return external_node_path_default().join(tempDir, 'loopgate', `${loopId}-${runId}`);
}
function createAdapter(settings) {
    switch (settings.agent) {
        case 'command':
            return new CommandAgent(settings.agentCommand ?? '');
        default:
            throw new Error(`agent '${settings.agent}' is not available in this build`);
    }
}
function apiKeyFor(settings) {
    if (settings.agent === 'claude' && settings.anthropicApiKey)
        return { name: 'ANTHROPIC_API_KEY', value: settings.anthropicApiKey };
    if (settings.agent === 'codex' && settings.openaiApiKey)
        return { name: 'OPENAI_API_KEY', value: settings.openaiApiKey };
    return undefined;
}
async function assertGitRepository(dir) {
    await git(['rev-parse', '--verify', 'HEAD'], { cwd: dir });
}
/** One whole run: workspace → loop → publish. Settings are already validated. */
async function executeRun(settings, ctx) {
    const runDir = runDirFor(ctx.tempDir, settings.loopId, ctx.runId);
    (0,external_node_fs_namespaceObject.mkdirSync)(runDir, { recursive: true, mode: 0o700 });
    const logFile = external_node_path_default().join(runDir, 'attempts.jsonl');
    const ledgerFile = external_node_path_default().join(runDir, 'ledger.jsonl');
    const progressPath = external_node_path_default().join(settings.workspace, settings.progressFile);
    const notes = [];
    await assertGitRepository(settings.workspace);
    const workspace = new GitWorkspace(settings.workspace, settings.progressFile, settings.featuresFile);
    await workspace.prepare();
    const guards = [];
    if (settings.featuresFile) {
        guards.push(new FeaturesGuard(external_node_path_default().join(settings.workspace, settings.featuresFile), settings.featuresFile));
    }
    const callsDir = external_node_path_default().join(ctx.tempDir, 'loopgate-calls', `${settings.loopId}-${ctx.runId}`);
    (0,external_node_fs_namespaceObject.mkdirSync)(callsDir, { recursive: true });
    const agent = agentRunner({
        adapter: createAdapter(settings),
        cwd: settings.workspace,
        maxTurns: settings.maxTurns,
        callBudgetUsd: settings.callBudgetUsd,
        env: agentEnv(ctx.env, { agent: settings.agent, extra: settings.agentEnv, apiKey: apiKeyFor(settings) }),
        callsDir
    });
    const gate = new WorkspaceGate({
        command: settings.gateCommand,
        cwd: settings.workspace,
        env: gateEnv(ctx.env, settings.agentEnv),
        timeoutMs: settings.gateTimeoutMs,
        signal: ctx.signal
    });
    const log = new AttemptLog(logFile);
    const ledger = new Ledger(ledgerFile);
    const progress = new ProgressFile(progressPath);
    const run = await runLoop({
        runId: ctx.runId,
        task: settings.prompt,
        maxIterations: settings.maxIterations,
        callBudgetUsd: settings.callBudgetUsd,
        spendCeilingUsd: settings.spendCeilingUsd,
        callTimeoutMs: settings.callTimeoutMs,
        timeLimitMs: settings.timeLimitMs,
        noProgressLimit: settings.noProgressLimit,
        sameFailureLimit: settings.sameFailureLimit,
        progressFileName: settings.progressFile
    }, {
        clock: ctx.clock ?? systemClock,
        agent,
        workspace,
        gate,
        guards,
        ledger,
        log,
        progress,
        signal: ctx.signal,
        report: ctx.report,
        onIteration: ctx.onIteration
    });
    const published = await ctx.publisher.publish({
        settings,
        outcome: run,
        runDir,
        logFile,
        progressText: progress.read()
    });
    notes.push(...published.notes);
    return {
        stopReason: run.stopReason,
        outcome: outcomeFor(run.stopReason, settings.onEscalate !== 'none'),
        run,
        runDir,
        logFile,
        ledgerFile,
        progressFile: progressPath,
        published,
        notes
    };
}
function defaultTempDir(env) {
    return env.RUNNER_TEMP || external_node_os_default().tmpdir();
}
function defaultRunId(env) {
    if (env.GITHUB_RUN_ID)
        return `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || '1'}`;
    return `local-${new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14)}-${process.pid}`;
}

;// CONCATENATED MODULE: ./src/cli/main.ts





const CLI_ONLY = [
    { name: 'workspace', description: 'The git repository to work in.', default: 'the current directory' },
    { name: 'temp-dir', description: 'Where the run folder (attempt log, ledger, would-be PR / issue bodies) goes.', default: '$RUNNER_TEMP or the OS temp dir' }
];
/** Inputs that make no sense locally: the CLI publishes nothing and holds no GitHub token. */
const ACTION_ONLY = new Set(['github-token', 'dry-run', 'on-success', 'on-escalate', 'escalate-to', 'labels', 'reviewers', 'draft', 'max-open-prs', 'max-runs-per-pr', 'allow-pull-request-target']);
class UsageError extends Error {
}
/** Parses `--name value`, `--name=value` and bare `--flag` (true) into input names. */
function parseFlags(argv) {
    const known = new Set([...INPUT_SPECS.map((s) => s.name), ...CLI_ONLY.map((s) => s.name), 'help']);
    const flags = new Map();
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (!arg.startsWith('--'))
            throw new UsageError(`unexpected argument: ${arg}`);
        const eq = arg.indexOf('=');
        const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
        if (!known.has(name))
            throw new UsageError(`unknown option --${name} (see loopgate run --help)`);
        if (eq > 0)
            flags.set(name, arg.slice(eq + 1));
        else if (i + 1 < argv.length && !argv[i + 1].startsWith('--'))
            flags.set(name, argv[++i]);
        else
            flags.set(name, 'true');
    }
    return flags;
}
function helpText() {
    const options = [...INPUT_SPECS.filter((s) => !ACTION_ONLY.has(s.name)), ...CLI_ONLY];
    const width = Math.max(...options.map((o) => o.name.length)) + 2;
    const lines = [
        'loopgate run — the bounded agent loop on your machine (publishes nothing)',
        '',
        'usage: loopgate run --gate-command CMD (--prompt TEXT | --prompt-file FILE) [options]',
        '',
        'options (the action\'s inputs, same defaults):'
    ];
    for (const o of options) {
        const def = 'default' in o && o.default !== undefined ? ` [default: ${o.default}]` : '';
        lines.push(`  --${o.name.padEnd(width)}${o.description}${def}`);
    }
    lines.push('', 'API keys: --anthropic-api-key / --openai-api-key, or ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment.', '', 'exit status (one per stop reason):');
    for (const reason of STOP_REASONS)
        lines.push(`  ${String(exitCodeFor(reason)).padStart(3)}  ${reason.padEnd(20)} ${STOP_EXPLANATIONS[reason].what}`);
    lines.push('    2  (usage error)');
    return `${lines.join('\n')}\n`;
}
const main_usd = (n) => `$${n.toFixed(2)}`;
/** One line per iteration for a terminal: short, with marks. */
function ttyLine(r, maxIterations, ceiling) {
    const agent = r.agent.status === 'claimed-done' ? 'agent done' : `agent ${r.agent.status} (${r.agent.reason})`;
    const gate = !r.gate ? 'gate –' : r.gate.passed ? 'gate ✓' : `gate ✗ ${r.gate.fingerprint ?? ''} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim();
    const files = r.changedFiles.length ? `${r.changedFiles.length} file(s)` : 'no change';
    const rejected = r.rejected.length ? ` · ⚠ ${r.rejected.length} rejected` : '';
    return `▸ ${r.iteration}/${maxIterations} · ${agent} · ${files} · ${gate}${rejected} · ${main_usd(r.spentUsd)}/${main_usd(ceiling)}`;
}
const defaultIO = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    isTTY: process.stdout.isTTY === true,
    env: process.env
};
async function runCli(argv, io = defaultIO) {
    const [command, ...rest] = argv;
    if (command === '--help' || command === '-h' || command === 'help' || (command === 'run' && rest.includes('--help'))) {
        io.out(helpText());
        return 0;
    }
    if (command !== 'run') {
        io.err(`usage: loopgate run --gate-command CMD --prompt TEXT [options]; loopgate --help lists them\n`);
        return 2;
    }
    let flags;
    try {
        flags = parseFlags(rest);
    }
    catch (err) {
        if (err instanceof UsageError) {
            io.err(`${err.message}\n`);
            return 2;
        }
        throw err;
    }
    const env = io.env;
    if (!flags.has('anthropic-api-key') && env.ANTHROPIC_API_KEY)
        flags.set('anthropic-api-key', env.ANTHROPIC_API_KEY);
    if (!flags.has('openai-api-key') && env.OPENAI_API_KEY)
        flags.set('openai-api-key', env.OPENAI_API_KEY);
    flags.set('dry-run', 'true');
    flags.delete('github-token');
    let settings;
    try {
        settings = readSettings((name) => flags.get(name) ?? '', { ...env, GITHUB_WORKSPACE: flags.get('workspace') ?? process.cwd() });
    }
    catch (err) {
        if (err instanceof ConfigError) {
            io.err(`config-error: ${err.message}\n`);
            io.out('stop-reason: config-error\n');
            return exitCodeFor('config-error');
        }
        throw err;
    }
    const abort = new AbortController();
    const onSignal = () => abort.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
        const report = await executeRun(settings, {
            env,
            runId: defaultRunId(env),
            tempDir: flags.get('temp-dir') ?? defaultTempDir(env),
            publisher: new DryRunPublisher(),
            signal: abort.signal,
            report: (line) => io.out(`${line}\n`),
            onIteration: (record) => io.out(`${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : `iteration ${record.iteration}: ${record.decision}; spent ${main_usd(record.spentUsd)}; ${record.gate ? (record.gate.passed ? 'gate passed' : `gate failed (${record.gate.reason})`) : 'gate not run'}`}\n`)
        });
        io.out(`stop-reason: ${report.stopReason}\n`);
        io.out(`${STOP_EXPLANATIONS[report.stopReason].what} ${STOP_EXPLANATIONS[report.stopReason].action}\n`);
        io.out(`attempt log: ${report.logFile}\n`);
        for (const file of report.published.files)
            io.out(`would publish: ${file}\n`);
        return exitCodeFor(report.stopReason);
    }
    finally {
        process.removeListener('SIGINT', onSignal);
        process.removeListener('SIGTERM', onSignal);
    }
}

;// CONCATENATED MODULE: ./src/cli.ts
// The local CLI: `loopgate run ...` (see README). Filled in by the CLI issue.

runCli(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
});

