import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);

// src/git/git.ts
import { execFile } from "node:child_process";

// src/git/author.ts
var LOCAL_AUTHOR = { name: "loopgate", email: "loopgate@localhost" };
var GITHUB_ACTIONS_AUTHOR = {
  name: "github-actions[bot]",
  email: "41898282+github-actions[bot]@users.noreply.github.com"
};
function noreplyAuthor(login, id) {
  return { name: login, email: `${id}+${login}@users.noreply.github.com` };
}
function parseCommitAuthor(raw) {
  const m = /^([^<>\n\r\0]*?)\s*<([^<>\s\0]+@[^<>\s\0]+)>$/.exec(raw.trim());
  if (!m || m[1].trim() === "") return void 0;
  return { name: m[1].trim(), email: m[2] };
}

// src/git/custody-registry.ts
import path from "node:path";
var held = /* @__PURE__ */ new Map();
function registerHeld(repo) {
  held.set(path.resolve(repo.workspace), repo);
}
function unregisterHeld(workspace) {
  held.delete(path.resolve(workspace));
}
function heldRepositoryFor(cwd) {
  if (held.size === 0) return void 0;
  let dir = path.resolve(cwd);
  for (; ; ) {
    const repo = held.get(dir);
    if (repo) return repo;
    const parent = path.dirname(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
}

// src/git/git.ts
var GitError = class extends Error {
  constructor(args, result) {
    super(`git ${args.join(" ")} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
    this.args = args;
    this.result = result;
    this.name = "GitError";
  }
  args;
  result;
};
var LOOPGATE_GIT_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.pager=cat",
  "core.editor=true",
  "core.askPass=",
  "credential.helper=",
  "safe.directory=*",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "protocol.ext.allow=never",
  "submodule.recurse=false"
];
function gitEnv(author = LOCAL_AUTHOR, base = process.env) {
  const env = {};
  for (const key of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"]) if (base[key]) env[key] = base[key];
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = "/dev/null";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_AUTHOR_NAME = author.name;
  env.GIT_AUTHOR_EMAIL = author.email;
  env.GIT_COMMITTER_NAME = author.name;
  env.GIT_COMMITTER_EMAIL = author.email;
  env.LC_ALL = "C";
  return env;
}
function gitArgs(args, opts) {
  const held2 = heldRepositoryFor(opts.cwd);
  const config = [...LOOPGATE_GIT_CONFIG, ...held2 ? ["core.splitIndex=true"] : [], ...opts.config ?? []];
  const location = held2 ? [`--git-dir=${held2.gitDir}`, `--work-tree=${held2.workspace}`] : [];
  return [...config.flatMap((c) => ["-c", c]), ...location, ...args];
}
function git(args, opts) {
  const fullArgs = gitArgs(args, opts);
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      fullArgs,
      { cwd: opts.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        const exitCode = err ? typeof err.code === "number" ? err.code : 1 : 0;
        const result = { stdout, stderr, exitCode };
        if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode)) resolve(result);
        else reject(new GitError(args, result));
      }
    );
    if (opts.input !== void 0) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}

export {
  registerHeld,
  unregisterHeld,
  heldRepositoryFor,
  LOCAL_AUTHOR,
  GITHUB_ACTIONS_AUTHOR,
  noreplyAuthor,
  parseCommitAuthor,
  GitError,
  LOOPGATE_GIT_CONFIG,
  gitEnv,
  gitArgs,
  git
};
