import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  INPUT_SPECS,
  readSettings
} from "../chunks/chunk-5B3GMXIV.js";
import {
  STATE_FOLDER_WORDS
} from "../chunks/chunk-3QTVR2TJ.js";
import {
  CHECKOUT_WORKERS,
  ConfigError,
  GitRepository,
  ROOT_DEPENDENCY_DIRS,
  STOP_REASONS,
  agentSpecs,
  defaultRunId,
  discardInBackground,
  exitCodeFor,
  isVirtualenv,
  redirectWorkspacePaths,
  stopReasonEntry,
  usd,
  workBranchName,
  workspaceInstalls
} from "../chunks/chunk-UOEWHHCT.js";
import "../chunks/chunk-A7L3NG6G.js";
import "../chunks/chunk-VL6SSRFO.js";

// src/cli/run-cli.ts
import { statSync as statSync2 } from "node:fs";
import path4 from "node:path";

// src/version.ts
var VERSION = "0.1.0";

// src/cli/args.ts
import { parseArgs } from "node:util";
var CLI_ONLY = [
  { name: "workspace", description: "The git repository to work in.", default: "the current directory" },
  { name: "temp-dir", description: "Where the run folder (attempt log, ledger, would-be PR / issue bodies) goes.", default: "$RUNNER_TEMP or the OS temp dir" }
];
var ACTION_ONLY = /* @__PURE__ */ new Set([
  "github-token",
  "dry-run",
  "on-success",
  "on-escalate",
  "escalate-to",
  "labels",
  "reviewers",
  "draft",
  "max-open-prs",
  "max-runs-per-pr",
  "allow-pull-request-target",
  "comment-command",
  "allow-users",
  "allow-bots",
  "dependency-bots",
  "sign-commits"
]);
var RUN_OPTIONS = [
  ...INPUT_SPECS.filter((s) => !ACTION_ONLY.has(s.name)),
  ...CLI_ONLY
];
var UsageError = class extends Error {
};
function parseCommand(argv) {
  const [command, ...rest] = argv;
  if (command === void 0) throw new UsageError("no command given");
  if (command === "--help" || command === "-h" || command === "help") return { kind: "help" };
  if (command === "--version" || command === "-V" || command === "version") return { kind: "version" };
  if (command !== "run") throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const flags = parseRunOptions(rest);
  return flags === "help" ? { kind: "run-help" } : { kind: "run", flags };
}
var STRING_OPTIONS = new Set(RUN_OPTIONS.map((o) => o.name));
var CLI_SWITCHES = [
  { name: "fresh", description: "start from the base, not from the loop's unfinished work (--resume false)" },
  { name: "verbose", description: "also print the resolved protected globs" }
];
var SWITCH_TOKENS = new Set(CLI_SWITCHES.map((s) => `--${s.name}`));
function isOptionToken(arg) {
  if (arg === "-h" || arg === "--help" || SWITCH_TOKENS.has(arg)) return true;
  if (!arg.startsWith("--")) return false;
  const eq = arg.indexOf("=");
  const name = arg.slice(2, eq > 0 ? eq : void 0);
  return STRING_OPTIONS.has(name) || ACTION_ONLY.has(name);
}
function joinValues(argv) {
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const name = arg.startsWith("--") && !arg.includes("=") ? arg.slice(2) : void 0;
    if (name === void 0 || !STRING_OPTIONS.has(name)) {
      out.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next === void 0 || isOptionToken(next)) throw new UsageError(`option --${name} needs a value`);
    out.push(`--${name}=${next}`);
    i++;
  }
  return out;
}
function parseRunOptions(argv) {
  const switches = /* @__PURE__ */ new Set();
  for (const arg of argv) {
    if (!SWITCH_TOKENS.has(arg)) continue;
    if (switches.has(arg)) throw new UsageError(`option ${arg} is given more than once`);
    switches.add(arg);
  }
  const flags = parseValueOptions(argv.filter((a) => !SWITCH_TOKENS.has(a)));
  if (flags === "help") return flags;
  if (switches.has("--fresh")) {
    if (flags.has("resume")) throw new UsageError("--fresh and --resume say the same thing: give one of them");
    flags.set("resume", "false");
  }
  if (switches.has("--verbose")) flags.set("verbose", "true");
  return flags;
}
function parseValueOptions(argv) {
  const args = joinValues(argv);
  for (const arg of args) {
    if (arg === "--") throw new UsageError("unexpected argument: --");
    const name = arg.startsWith("--") ? arg.slice(2).split("=")[0] : void 0;
    if (name !== void 0 && ACTION_ONLY.has(name)) {
      throw new UsageError(`--${name} is an action input with no meaning locally (the CLI publishes nothing)`);
    }
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h" },
        ...Object.fromEntries(RUN_OPTIONS.map((o) => [o.name, { type: "string", multiple: true }]))
      }
    });
  } catch (err) {
    throw new UsageError(usageMessage(err));
  }
  if (parsed.values.help) return "help";
  const flags = /* @__PURE__ */ new Map();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (!Array.isArray(value)) continue;
    if (value.length > 1) throw new UsageError(`option --${name} is given ${value.length} times`);
    flags.set(name, value[0]);
  }
  return flags;
}
function usageMessage(err) {
  const code = err.code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `unknown option ${option}`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    const arg = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `unexpected argument: ${arg}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const option = /(--[a-z-]+|-[a-zA-Z])/.exec(message)?.[1] ?? "an option";
    return `option ${option} takes no value`;
  }
  return message;
}

// src/cli/help.ts
var CLI_WORDS = {
  prompt: ["<text>", "the task"],
  "prompt-file": ["<file>", "a file in the repository holding the task"],
  task: ["<task>", "a built-in task instead of a prompt: dependency-upgrade"],
  ignore: ["<list>", "dependency-upgrade: packages to leave alone (name, name@version, *)"],
  "allow-major": ["<bool>", "dependency-upgrade: also cross a major version"],
  "working-directory": ["<dir>", "the folder the loop works in, relative to the repository top"],
  "agent-command": ["<cmd>", "agent command: the shell command run once per iteration"],
  "agent-args": ["<args>", "extra arguments for the agent CLI (e.g. --model x)"],
  "agent-version": ["<version>", "the agent CLI version installed when it is not on PATH"],
  "agent-env": ["<names>", "extra environment variables passed to the agent and the gate"],
  "max-iterations": ["<n>", "iteration cap"],
  "max-turns": ["<n>", "turn cap per agent call"],
  "call-budget-usd": ["<usd>", "budget per call; a call with no cost report is charged this much"],
  "spend-ceiling-usd": ["<usd>", "spend ceiling of this run"],
  "call-timeout-minutes": ["<min>", "wall clock per agent call"],
  "time-limit-minutes": ["<min>", "wall clock of the whole run"],
  "gate-timeout-minutes": ["<min>", "wall clock per gate run"],
  "no-progress-limit": ["<n>", "stop after this many iterations in a row with no change"],
  "same-failure-limit": ["<n>", "stop after the same gate failure this many times in a row"],
  "gate-command": ["<cmd>", "the command that runs the protected tests (required)"],
  "gate-setup": ["<cmd>", "run before each gate in its clean checkout (e.g. npm ci)"],
  "gate-report": ["<file>", "a JUnit XML, jest/vitest JSON or TAP report the gate writes; exit-code: judge by the exit code alone"],
  "protected-paths": ["<globs>", "more paths the agent may not change (!glob removes one)"],
  "base-ref": ["<ref>", "the branch, tag or commit the protected tests come from [default: the checked-out commit]"],
  "features-file": ["<file>", "a flip-only JSON checklist, verified by the gate report"],
  "progress-file": ["<file>", "notes carried between iterations"],
  "loop-id": ["<id>", "names the loop: its branch loopgate/<id> and its state [default: local]"],
  "period-ceiling-usd": ["<usd>", "rolling spend ceiling across runs of this loop"],
  "period-hours": ["<hours>", "the window of --period-ceiling-usd"],
  "price-table": ["<json>", "Codex pricing override"],
  model: ["<model>", "the model [default: the agent CLI's own]"],
  "commit-author": ['<"Name <email>">', "author of loopgate's commits [default: loopgate <loopgate@localhost>]"],
  resume: ["<bool>", "resume the loop's unfinished work when there is some [default: true]"],
  workspace: ["<dir>", "the repository, or any folder in it [default: the current folder]"],
  "temp-dir": ["<dir>", "where the run folder is made [default: $RUNNER_TEMP, else a private folder in the OS temp dir]"]
};
var listed = (words) => words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words.join("");
function agentWords() {
  const specs = agentSpecs();
  const providers = specs.flatMap((spec) => spec.providers ? [`${spec.providers.map((p) => p.name).join(", ")} (${spec.name})`] : []);
  return {
    agent: ["<name>", listed(specs.map((spec) => spec.name))],
    provider: ["<name>", providers.join("; ")],
    ...Object.assign({}, ...specs.map((spec) => spec.inputHelp ?? {}))
  };
}
var firstSentence = (text) => text.split(/(?<=\.)\s/)[0].replace(/\.$/, "");
var RUN_USAGE = "usage: loopgate run --gate-command <cmd> (--prompt <text> | --prompt-file <file> | --task <task>) [options]";
function mainHelp(stateFolder) {
  return `${[
    "loopgate \u2014 runs a coding agent in a bounded loop until a protected test gate passes",
    "",
    RUN_USAGE,
    "       loopgate run --help     the options of run, and the exit statuses",
    "       loopgate --version",
    "",
    "loopgate run works in a clone of the checked-out commit and leaves its commits on the branch",
    "loopgate/<loop-id> of your repository: your branch, index and working tree stay as they were.",
    `The loop's state (charges, upgrade attempts, failures) lives in ${stateFolder}.`
  ].join("\n")}
`;
}
function runHelp(stateFolder) {
  const words = { ...agentWords(), ...CLI_WORDS };
  const rows = RUN_OPTIONS.map((o) => {
    const [placeholder, text] = words[o.name] ?? ["<value>", firstSentence(o.description)];
    const shownDefault = "default" in o && o.default !== void 0 && !text.includes("[default:") && !CLI_ONLY_DEFAULT.has(o.name);
    return { flag: `--${o.name} ${placeholder}`, text: shownDefault ? `${text} [default: ${o.default}]` : text };
  });
  rows.push(...CLI_SWITCHES.map((o) => ({ flag: `--${o.name}`, text: o.description })));
  const width = Math.max(...rows.map((r) => r.flag.length)) + 2;
  const keys = agentSpecs().flatMap((spec) => spec.apiKey ? [spec.apiKey.env] : []);
  const lines = [
    RUN_USAGE,
    "",
    "Runs the loop on a clone of the checked-out commit; its commits come back as the branch",
    "loopgate/<loop-id>, and the last lines say how to look at it and how to delete it. It publishes nothing.",
    "",
    "options:",
    ...rows.map((r) => `  ${r.flag.padEnd(width)}${r.text}`),
    "",
    `Model credentials: the options above, or ${keys.join(" / ")} in the environment.`,
    `Loop state (kept between runs of one loop): ${stateFolder}; delete that folder to forget it.`,
    "",
    "exit status (one per stop reason):",
    ...STOP_REASONS.map((reason) => `  ${String(exitCodeFor(reason)).padStart(3)}  ${reason}`),
    "    2  usage error"
  ];
  return `${lines.join("\n")}
`;
}
var CLI_ONLY_DEFAULT = /* @__PURE__ */ new Set(["workspace", "temp-dir"]);

// src/cli/required.ts
function missingOptions(flags) {
  const given = (name) => (flags.get(name) ?? "").trim() !== "";
  const missing = [];
  if (!given("gate-command")) missing.push("--gate-command <cmd>");
  if (!given("prompt") && !given("prompt-file") && !given("task")) missing.push("--prompt <text> (or --prompt-file <file>, or --task <task>)");
  if (flags.get("agent") === "command" && !given("agent-command")) missing.push("--agent-command <cmd> (for --agent command)");
  return missing;
}

// src/cli/cli-words.ts
var INPUT_NAMES = new Set(INPUT_SPECS.map((s) => s.name));
function cliWords(text) {
  return text.replace(/Input '([a-z0-9-]+)'/g, (whole, name) => INPUT_NAMES.has(name) ? `--${name}` : whole).replace(/`([a-z0-9-]+)`/g, (whole, name) => INPUT_NAMES.has(name) ? `--${name}` : whole).replace(/`([a-z0-9-]+): ([^`]+)`/g, (whole, name, value) => INPUT_NAMES.has(name) ? `--${name} ${value}` : whole).replace(/Re-run the workflow/g, "Run loopgate again");
}
function verboseOnly(note) {
  return note.startsWith("protected paths (resolved):");
}

// src/cli/failing-tests.ts
var SHOWN = 10;
var oneLine = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
function failingTestLines(iterations) {
  const gate = [...iterations].reverse().find((r) => r.gate && !r.gate.passed && r.gate.failures.length > 0)?.gate;
  if (!gate) return [];
  const lines = gate.failures.slice(0, SHOWN).map((f) => {
    const first = f.message.split("\n").find((l) => l.trim() !== "");
    return `  \u2715 ${oneLine(f.id)}${first ? `: ${oneLine(first).slice(0, 200)}` : ""}`;
  });
  const more = gate.failures.length - SHOWN;
  return [`failing tests (${gate.failures.length}):`, ...lines, ...more > 0 ? [`  \u2026 and ${more} more in the attempt log`] : []];
}
function adviceFor(action, listed2) {
  return listed2 ? action : action.replace("Read the failing tests below", "Read the gate's output in the attempt log");
}

// src/cli/run-output.ts
var oneLine2 = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
var RunOutput = class {
  constructor(io, verbose) {
    this.io = io;
    this.verbose = verbose;
  }
  io;
  verbose;
  said = /* @__PURE__ */ new Set();
  /** A line of the run's progress. */
  report(line) {
    const text = cliWords(line);
    if (verboseOnly(text) && !this.verbose) return;
    this.said.add(oneLine2(text));
    this.io.out(`${text}
`);
  }
  /** Why the run stopped before the loop (an error): on stderr, said once. */
  explain(line) {
    const text = cliWords(line);
    this.said.add(oneLine2(text));
    this.io.err(`${text}
`);
  }
  /** Something a person should act on, though the run goes on. */
  warn(line) {
    const text = cliWords(line);
    this.said.add(oneLine2(text));
    this.io.err(`warning: ${text}
`);
  }
  /** What the run found, its stop reason in words, where its files are; the exit status of its stop reason. */
  end(end) {
    const io = this.io;
    if (end.kind === "stopped") {
      io.err(`${end.stopReason}: ${cliWords(end.message)}
`);
      io.out(`stop-reason: ${end.stopReason}
`);
      return exitCodeFor(end.stopReason);
    }
    const report = end.report;
    const entry = stopReasonEntry(report.stopReason);
    const explain = entry.outcome === "stopped" ? io.err : io.out;
    for (const note of report.notes) {
      const text = oneLine2(cliWords(note));
      if (this.said.has(text) || verboseOnly(text) && !this.verbose) continue;
      this.said.add(text);
      explain(`note: ${text}
`);
    }
    io.out(`stop-reason: ${report.stopReason}
`);
    const failing = report.stopReason === "verified" ? [] : failingTestLines(report.run?.iterations ?? []);
    explain(`${entry.outcome === "stopped" ? `${report.stopReason}: ` : ""}${cliWords(`${entry.what} ${adviceFor(entry.action, failing.length > 0)}`)}
`);
    for (const line of failing) io.out(`${line}
`);
    io.out(`attempt log: ${report.logFile}
`);
    for (const file of report.published.files) io.out(`would publish: ${file}
`);
    if (end.stateSaved && !end.stateSaved.saved) io.err(`warning: the loop state was not saved: ${end.stateSaved.message ?? "unknown reason"}
`);
    return exitCodeFor(report.stopReason);
  }
};

// src/cli/installed-deps.ts
import { execFile } from "node:child_process";
import { lstatSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
var execFileAsync = promisify(execFile);
var isFolder = (dir) => {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
};
async function installedFolders(repo) {
  const user = GitRepository.plain(repo.top);
  const found = [];
  for (const rel of ROOT_DEPENDENCY_DIRS) {
    if (!isFolder(path.join(repo.top, rel))) continue;
    if ((await user.lsFiles(["--", `:(literal)${rel}`])).length) continue;
    found.push(rel);
  }
  return [...found, ...await workspaceInstalls(repo.top, user)];
}
async function copyInstalledDeps(repo, clone) {
  const folders = await installedFolders(repo);
  await Promise.all(
    folders.map(async (rel) => {
      const dest = path.join(clone, rel);
      await execFileAsync("cp", ["-R", "--no-dereference", "--preserve=mode,timestamps,links", "--reflink=auto", "--", path.join(repo.top, rel), dest]);
      redirectWorkspacePaths({ copy: dest, name: rel, workspace: repo.top, checkout: clone, virtualenv: isVirtualenv(dest) });
    })
  );
  return folders;
}
function notInstalledHint(repo, copied) {
  const has = (file) => {
    try {
      return lstatSync(path.join(repo.top, file)).isFile();
    } catch {
      return false;
    }
  };
  if (has("package.json") && !copied.includes("node_modules")) {
    return `${path.join(repo.top, "node_modules")} was not there: the project's dependencies are not installed, so the gate's programs are missing. Install them first (npm ci, or your package manager's install), or give --gate-setup 'npm ci'.`;
  }
  const python = ["pyproject.toml", "requirements.txt", "requirements-dev.txt"].find(has);
  if (python && !copied.includes(".venv") && !copied.includes("venv")) {
    return `${path.join(repo.top, ".venv")} was not there: the project's dependencies are not installed (it has a ${python}). Make one first (python3 -m venv .venv and install into it), or give --gate-setup with the install.`;
  }
  return null;
}
var MISSING_PROGRAM = /cannot start|: not found|command not found|No module named|Cannot find (?:module|package)|ERR_MODULE_NOT_FOUND|\bexit 127\b/;
function programMissing(end) {
  const said = end.kind === "stopped" ? [end.message] : end.report.notes;
  return said.some((text) => MISSING_PROGRAM.test(text));
}

// src/cli/temp-root.ts
import { chmodSync, lstatSync as lstatSync2, mkdirSync, mkdtempSync, statSync } from "node:fs";
import os from "node:os";
import path2 from "node:path";
var TempRootError = class extends Error {
};
var ROOT_MODE = 457;
function ownFolder(dir) {
  try {
    mkdirSync(dir, { mode: ROOT_MODE });
  } catch (err) {
    if (err.code !== "EEXIST") return null;
  }
  const st = lstatSync2(dir);
  const uid = process.getuid?.() ?? st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 18) !== 0) return null;
  chmodSync(dir, ROOT_MODE);
  return dir;
}
function parentFor(given) {
  if (given) {
    let isDir = false;
    try {
      isDir = statSync(given.dir).isDirectory();
    } catch {
      throw new TempRootError(`${given.name} ${given.dir} does not exist: create it (mkdir -p ${given.dir}) or leave ${given.name} unset`);
    }
    if (!isDir) throw new TempRootError(`${given.name} ${given.dir} is not a folder: point it at a folder, or leave it unset`);
    return given.dir;
  }
  const tmp = os.tmpdir();
  const uid = process.getuid?.() ?? "user";
  return ownFolder(path2.join(tmp, `loopgate-${uid}`)) ?? tmp;
}
function makeTempRoot(flag, env) {
  const given = flag ? { dir: flag, name: "--temp-dir" } : env.RUNNER_TEMP ? { dir: env.RUNNER_TEMP, name: "RUNNER_TEMP" } : null;
  const parent = parentFor(given);
  let root;
  try {
    root = mkdtempSync(path2.join(parent, "loopgate-run-"));
  } catch (err) {
    throw new TempRootError(
      `cannot create a folder in ${parent} (${err.code ?? err.message}): choose another with --temp-dir`
    );
  }
  chmodSync(root, ROOT_MODE);
  return root;
}

// src/cli/words.ts
function chargeWords(r) {
  const source = r.agent.costSource;
  if (source === "worst-case") return `charged ${usd(r.chargedUsd)} (no cost reported)`;
  if (source === "not-started") return `charged ${usd(r.chargedUsd)} (the agent never started)`;
  return `charged ${usd(r.chargedUsd)}`;
}
function agentFailureWords(r) {
  const a = r.agent;
  if (a.status !== "failed") return null;
  return `the agent failed (${a.exitCode !== null ? `exit ${a.exitCode}` : a.reason})`;
}

// src/cli/work-copy.ts
import { rmSync } from "node:fs";
import path3 from "node:path";
var RepositoryError = class extends Error {
};
async function findRepository(dir) {
  const root = await GitRepository.plain(dir).topLevel();
  if (root === null) throw new RepositoryError(`${dir} is not inside a git repository: run loopgate in a repository, or point --workspace at one`);
  const repo = GitRepository.plain(root);
  const [head, common, branch] = await Promise.all([repo.tryHead(), repo.run(["rev-parse", "--git-common-dir"]), repo.currentBranch()]);
  if (head === null) throw new RepositoryError(`the repository ${root} has no commit yet: commit something first, loopgate starts from the checked-out commit`);
  return { top: root, commonDir: path3.resolve(root, common.stdout.trim()), head, branch };
}
function checkDeliverable(repo, loopId) {
  const branch = workBranchName(loopId);
  if (repo.branch === branch) {
    throw new RepositoryError(
      `${branch} is checked out, and it is the branch this loop writes its work to: switch to another branch first (git switch -), or choose another --loop-id`
    );
  }
}
async function findBase(repo, given) {
  const user = GitRepository.plain(repo.top);
  const sha = await user.tryRevParse(`${given}^{commit}`);
  if (sha === null) {
    throw new RepositoryError(
      `--base-ref ${given} is not a branch, remote branch, tag or commit of ${repo.top} (git branch -a and git tag list them; git fetch brings a remote's)`
    );
  }
  const named = await user.run(["rev-parse", "--symbolic-full-name", "--end-of-options", given], { okCodes: [128] });
  const ref = named.exitCode === 0 ? named.stdout.split("\n").find((line) => /^refs\/(heads|remotes|tags)\//.test(line)) : void 0;
  return { given, sha, ref: ref ?? null };
}
async function cloneForRun(repo, dir, base) {
  await GitRepository.plain(path3.dirname(dir)).run(["clone", "--no-local", "--no-checkout", "--quiet", "--", repo.top, dir]);
  const clone = GitRepository.plain(dir);
  await clone.run([
    "-c",
    `checkout.workers=${CHECKOUT_WORKERS}`,
    "checkout",
    "--quiet",
    ...repo.branch ? ["-B", repo.branch, repo.head] : ["--detach", repo.head]
  ]);
  await clone.run(["remote", "remove", "origin"]);
  if (!base) return { dir };
  const target = base.ref ?? "refs/loopgate/base";
  if (target !== `refs/heads/${repo.branch ?? ""}`) {
    await clone.fetch(repo.top, [`+${base.sha}:${target}`]);
    rmSync(path3.join(dir, ".git", "FETCH_HEAD"), { force: true });
  }
  const known = await clone.tryRevParse(`${base.given}^{commit}`);
  return { dir, baseRef: known === base.sha ? base.given : base.sha };
}
async function deliverWork(repo, clone, loopId) {
  const branch = workBranchName(loopId);
  const work = GitRepository.plain(clone);
  const head = await work.head();
  const count = await work.revListCount(`${repo.head}..${head}`);
  if (!count) return { branch, commits: 0, replaced: null };
  const user = GitRepository.plain(repo.top);
  const old = await user.tryRevParse(`refs/heads/${branch}`);
  await user.fetch(path3.join(clone, ".git"), [`+HEAD:refs/heads/${branch}`]);
  return { branch, commits: count, replaced: old && old !== head ? old : null };
}
function deliveryLines(repo, delivered) {
  if (!delivered.commits) return ["loopgate committed nothing: your repository is as it was, no branch was written."];
  const from = repo.branch ?? repo.head.slice(0, 12);
  const b = delivered.branch;
  return [
    `loopgate's work: ${delivered.commits} commit(s) on the branch ${b}, on top of ${from}. Your branch, index and working tree are as they were.`,
    ...delivered.replaced ? [`  (it replaced the earlier ${b} at ${delivered.replaced.slice(0, 12)}: git branch ${b}-earlier ${delivered.replaced} brings that back)`] : [],
    `  look at it:  git log ${from}..${b}    git diff ${from}...${b}`,
    `  take it:     git merge ${b}`,
    `  delete it:   git branch -D ${b}`
  ];
}
function removeClone(dir) {
  discardInBackground([dir]);
}

// src/cli/run-cli.ts
function folderProblem(dir) {
  try {
    if (!statSync2(dir).isDirectory()) return `${dir} is not a folder (set --workspace to a git repository)`;
  } catch {
    return `${dir} does not exist (set --workspace to a git repository, or run loopgate inside one)`;
  }
  return void 0;
}
function ttyLine(r, maxIterations, ceiling) {
  const agent = r.agent.status === "claimed-done" ? "agent done" : agentFailureWords(r) ?? `agent ${r.agent.status} (${r.agent.reason})`;
  const gate = !r.gate ? "gate \u2013" : r.gate.passed ? "gate \u2713" : `gate \u2717 ${r.gate.fingerprint ?? ""} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim();
  const files = r.changedFiles.length ? `${r.changedFiles.length} file(s)` : "no change";
  const rejected = r.rejected.length ? ` \xB7 \u26A0 ${r.rejected.length} rejected` : "";
  return `\u25B8 ${r.iteration}/${maxIterations} \xB7 ${agent} \xB7 ${files} \xB7 ${gate}${rejected} \xB7 ${chargeWords(r)} \xB7 ${usd(r.spentUsd)}/${usd(ceiling)}`;
}
function plainLine(r) {
  const failed = agentFailureWords(r);
  return `iteration ${r.iteration}: ${r.decision}; ${failed ? `${failed}; ` : ""}${chargeWords(r)}, ${usd(r.spentUsd)} in all; ${r.gate ? r.gate.passed ? "gate passed" : `gate failed (${r.gate.reason})` : "gate not run"}`;
}
var defaultIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
  env: process.env
};
var USAGE = `${RUN_USAGE}
       loopgate run --help lists the options`;
async function runCli(argv, io = defaultIO) {
  let command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`loopgate: ${err.message}
${USAGE}
`);
    return 2;
  }
  if (command.kind === "help") return printed(io, mainHelp(STATE_FOLDER_WORDS));
  if (command.kind === "run-help") return printed(io, runHelp(STATE_FOLDER_WORDS));
  if (command.kind === "version") return printed(io, `${VERSION}
`);
  const missing = missingOptions(command.flags);
  if (missing.length) {
    io.err(`loopgate run: missing ${missing.join(", ")}
${USAGE}
`);
    io.out("stop-reason: config-error\n");
    return exitCodeFor("config-error");
  }
  const flags = command.flags;
  const verbose = flags.get("verbose") === "true";
  flags.delete("verbose");
  const problem = folderProblem(path4.resolve(flags.get("workspace") ?? process.cwd()));
  if (problem) return configError(problem, io);
  let repo;
  let tempRoot;
  try {
    repo = await findRepository(path4.resolve(flags.get("workspace") ?? process.cwd()));
    tempRoot = makeTempRoot(flags.get("temp-dir"), io.env);
  } catch (err) {
    if (err instanceof RepositoryError || err instanceof TempRootError) return configError(err.message, io);
    throw err;
  }
  const read = cliSettings(flags, io, repo);
  if (typeof read === "number") return read;
  let base;
  try {
    base = await findBase(repo, read.baseRef ?? repo.branch ?? repo.head);
  } catch (err) {
    if (err instanceof RepositoryError) return configError(err.message, io);
    throw err;
  }
  return runInClone({ settings: read, repo, base, tempRoot, io, verbose });
}
function printed(io, text) {
  io.out(text);
  return 0;
}
async function runInClone({ settings, repo, base, tempRoot, io, verbose }) {
  const env = io.env;
  const machinery = import("../chunks/run-machinery-COW53LQI.js");
  machinery.catch(() => void 0);
  const { dir: clone, baseRef } = await cloneForRun(repo, path4.join(tempRoot, "work"), base);
  const installed = await copyInstalledDeps(repo, clone);
  const inClone = { ...settings, baseRef, workspace: path4.resolve(clone, path4.relative(repo.top, settings.workspace)) };
  const runId = defaultRunId(env);
  const output = new RunOutput(io, verbose);
  if (installed.length) output.report(`installed dependencies copied into the run's clone: ${installed.join(", ")}`);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const { runSession, localStateOpener, DryRunPublisher } = await machinery;
    const end = await runSession(inClone, {
      env,
      runId,
      tempDir: tempRoot,
      signal: abort.signal,
      report: (line) => output.report(line),
      warn: (line) => output.warn(line),
      explain: (line) => output.explain(line),
      openState: localStateOpener(repo, { env, tempDir: tempRoot, runId, resumeWords: resumeWords(repo, settings.loopId) }),
      integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
      onIteration: (record) => io.out(`${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : plainLine(record)}
`)
    });
    const code = output.end(end);
    const hint = code === exitCodeFor("gate-broken") && !settings.gateSetup && programMissing(end) ? notInstalledHint(repo, installed) : null;
    if (hint) io.err(`gate-broken: ${hint}
`);
    for (const line of deliveryLines(repo, await deliverWork(repo, clone, settings.loopId))) io.out(`${line}
`);
    io.out(`run files: ${tempRoot} (rm -rf ${tempRoot} deletes them)
`);
    return code;
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
    removeClone(clone);
  }
}
function resumeWords(repo, loopId) {
  const branch = workBranchName(loopId);
  return { branch, look: `git log ${repo.branch ?? repo.head.slice(0, 12)}..${branch}`, fresh: "run again with --fresh" };
}
function cliSettings(flags, io, repo) {
  const env = io.env;
  for (const spec of agentSpecs()) {
    for (const c of [...spec.apiKey ? [spec.apiKey] : [], ...(spec.providers ?? []).flatMap((p) => p.credentials)]) {
      if (!flags.has(c.input) && env[c.env]) flags.set(c.input, env[c.env]);
    }
  }
  flags.set("dry-run", "true");
  flags.delete("github-token");
  try {
    const settings = readSettings((name) => flags.get(name) ?? "", { ...env, GITHUB_WORKSPACE: repo.top });
    checkDeliverable(repo, settings.loopId);
    return settings;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof RepositoryError) return configError(err.message, io);
    throw err;
  }
}
function configError(message, io) {
  io.err(`config-error: ${cliWords(message)}
`);
  io.out("stop-reason: config-error\n");
  return exitCodeFor("config-error");
}

// src/cli.ts
runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}
`);
    process.exit(1);
  }
);
