import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  ConfigError,
  DryRunPublisher,
  INPUT_SPECS,
  STOP_REASONS,
  agentSpecs,
  defaultRunId,
  defaultTempDir,
  exitCodeFor,
  readSettings,
  runSession,
  stopReasonEntry,
  usd
} from "../chunks/chunk-LONVCCCZ.js";
import "../chunks/chunk-DR3RKOSX.js";
import "../chunks/chunk-FMPF2IXT.js";
import "../chunks/chunk-GKQMBJ4W.js";
import "../chunks/chunk-DGG4OAUV.js";

// src/cli/main.ts
import { statSync } from "node:fs";
import path from "node:path";

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
  "allow-bots"
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
function isOptionToken(arg) {
  if (arg === "-h" || arg === "--help") return true;
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

// src/cli/main.ts
function helpText() {
  const options = RUN_OPTIONS;
  const width = Math.max(...options.map((o) => o.name.length)) + 2;
  const lines = [
    "loopgate run \u2014 the bounded agent loop on your machine (publishes nothing)",
    "",
    "usage: loopgate run --gate-command CMD (--prompt TEXT | --prompt-file FILE) [options]",
    "       loopgate --version",
    "",
    "options (the action's inputs, same defaults):"
  ];
  for (const o of options) {
    const def = "default" in o && o.default !== void 0 ? ` [default: ${o.default}]` : "";
    lines.push(`  --${o.name.padEnd(width)}${o.description}${def}`);
  }
  const keys = agentSpecs().flatMap((spec) => spec.apiKey ? [spec.apiKey] : []);
  const keyFlags = keys.map((k) => `--${k.input}`).join(" / ");
  lines.push("", `API keys: ${keyFlags}, or ${keys.map((k) => k.env).join(" / ")} in the environment.`, "", "exit status (one per stop reason):");
  for (const reason of STOP_REASONS) lines.push(`  ${String(exitCodeFor(reason)).padStart(3)}  ${reason.padEnd(20)} ${stopReasonEntry(reason).what}`);
  lines.push("    2  (usage error)");
  return `${lines.join("\n")}
`;
}
function workspaceProblem(dir) {
  let isDir;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return `${dir} does not exist (set --workspace to a git repository, or run loopgate inside one)`;
  }
  if (!isDir) return `${dir} is not a folder (set --workspace to a git repository)`;
  try {
    statSync(path.join(dir, ".git"));
  } catch {
    return `${dir} is not a git repository (no .git at its top): run loopgate in a repository's top folder, or point --workspace at one`;
  }
  return void 0;
}
var oneLine = (text) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, " ").trim();
function ttyLine(r, maxIterations, ceiling) {
  const agent = r.agent.status === "claimed-done" ? "agent done" : `agent ${r.agent.status} (${r.agent.reason})`;
  const gate = !r.gate ? "gate \u2013" : r.gate.passed ? "gate \u2713" : `gate \u2717 ${r.gate.fingerprint ?? ""} ${r.gate.failures.length ? `${r.gate.failures.length} failing` : r.gate.reason}`.trim();
  const files = r.changedFiles.length ? `${r.changedFiles.length} file(s)` : "no change";
  const rejected = r.rejected.length ? ` \xB7 \u26A0 ${r.rejected.length} rejected` : "";
  return `\u25B8 ${r.iteration}/${maxIterations} \xB7 ${agent} \xB7 ${files} \xB7 ${gate}${rejected} \xB7 ${usd(r.spentUsd)}/${usd(ceiling)}`;
}
var defaultIO = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  isTTY: process.stdout.isTTY === true,
  env: process.env
};
var USAGE = "usage: loopgate run --gate-command CMD --prompt TEXT [options]; loopgate run --help lists them";
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
  if (command.kind === "help" || command.kind === "run-help") {
    io.out(helpText());
    return 0;
  }
  if (command.kind === "version") {
    io.out(`${VERSION}
`);
    return 0;
  }
  const read = cliSettings(command.flags, io);
  if (typeof read === "number") return read;
  const { settings, flags } = read;
  const env = io.env;
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const end = await runSession(settings, {
      env,
      runId: defaultRunId(env),
      tempDir: flags.get("temp-dir") ?? defaultTempDir(env),
      signal: abort.signal,
      report: (line) => io.out(`${line}
`),
      integrate: async (s) => ({ settings: s, publisher: new DryRunPublisher() }),
      onIteration: (record) => io.out(
        `${io.isTTY ? ttyLine(record, settings.maxIterations, settings.spendCeilingUsd) : `iteration ${record.iteration}: ${record.decision}; spent ${usd(record.spentUsd)}; ${record.gate ? record.gate.passed ? "gate passed" : `gate failed (${record.gate.reason})` : "gate not run"}`}
`
      )
    });
    return printEnd(end, io);
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
}
function cliSettings(flags, io) {
  const problem = workspaceProblem(path.resolve(flags.get("workspace") ?? process.cwd(), flags.get("working-directory") ?? ""));
  if (problem) return configError(problem, io);
  const env = io.env;
  for (const spec of agentSpecs()) {
    const key = spec.apiKey;
    if (key && !flags.has(key.input) && env[key.env]) flags.set(key.input, env[key.env]);
  }
  flags.set("dry-run", "true");
  flags.delete("github-token");
  try {
    return { settings: readSettings((name) => flags.get(name) ?? "", { ...env, GITHUB_WORKSPACE: flags.get("workspace") ?? process.cwd() }), flags };
  } catch (err) {
    if (err instanceof ConfigError) return configError(err.message, io);
    throw err;
  }
}
function configError(message, io) {
  io.err(`config-error: ${message}
`);
  io.out("stop-reason: config-error\n");
  return exitCodeFor("config-error");
}
function printEnd(end, io) {
  if (end.kind === "stopped") {
    io.err(`${end.stopReason}: ${end.message}
`);
    io.out(`stop-reason: ${end.stopReason}
`);
    return exitCodeFor(end.stopReason);
  }
  const report = end.report;
  for (const note of report.notes) io.out(`note: ${oneLine(note)}
`);
  io.out(`stop-reason: ${report.stopReason}
`);
  io.out(`${stopReasonEntry(report.stopReason).what} ${stopReasonEntry(report.stopReason).action}
`);
  io.out(`attempt log: ${report.logFile}
`);
  for (const file of report.published.files) io.out(`would publish: ${file}
`);
  return exitCodeFor(report.stopReason);
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
