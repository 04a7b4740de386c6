import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);

// src/git/command-line.ts
import { execFile, spawn } from "node:child_process";

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

// src/git/command-line.ts
function redact(text, secrets) {
  return secrets.reduce((t, s) => s ? t.split(s).join("***") : t, text);
}
var GitError = class extends Error {
  args;
  result;
  constructor(args, result, secrets = []) {
    const clean = { ...result, stdout: redact(result.stdout, secrets), stderr: redact(result.stderr, secrets) };
    const shown = args.map((a) => redact(a, secrets));
    super(`git ${shown.join(" ")} failed (exit ${result.exitCode}): ${clean.stderr.trim() || clean.stdout.trim()}`);
    this.name = "GitError";
    this.args = shown;
    this.result = clean;
  }
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
function commandLine(args, at, config = []) {
  const pinned = [...LOOPGATE_GIT_CONFIG, ...at.held ? ["core.splitIndex=true"] : [], ...config];
  const location = at.held ? [`--git-dir=${at.held.gitDir}`, `--work-tree=${at.held.workTree}`] : [];
  return [...pinned.flatMap((c) => ["-c", c]), ...location, ...args];
}
function runGit(args, at, opts = {}) {
  const fullArgs = commandLine(args, at, opts.config);
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      fullArgs,
      { cwd: at.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: "utf8" },
      (err, stdout, stderr) => {
        const exitCode = err ? typeof err.code === "number" ? err.code : 1 : 0;
        const result = { stdout, stderr, exitCode };
        if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode)) resolve(result);
        else reject(new GitError(args, result, opts.secrets));
      }
    );
    if (opts.input !== void 0) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}
function runGitBinary(args, at, input, env = gitEnv()) {
  const child = spawn("git", commandLine(args, at), { cwd: at.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitError(args, { stdout: "", stderr: Buffer.concat(err).toString("utf8"), exitCode: code ?? 1 }));
    });
  });
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

// src/git/repository.ts
var zlist = (text) => text.split("\0").filter(Boolean);
var GitRepository = class _GitRepository {
  constructor(dir, held2, author) {
    this.dir = dir;
    this.held = held2;
    this.author = author;
  }
  dir;
  held;
  author;
  /** A repository whose git directory is its own: a clean clone, a scratch repository, a repository not held. */
  static plain(dir, author = LOCAL_AUTHOR) {
    return new _GitRepository(dir, void 0, author);
  }
  /** The workspace loopgate holds, through loopgate's own git directory. */
  static held(repo, author = LOCAL_AUTHOR, dir = repo.workspace) {
    return new _GitRepository(dir, repo, author);
  }
  /**
   * Lookup for call sites not yet given their repository: `dir` through loopgate's git directory
   * when it is inside a workspace loopgate holds (see custody-registry.ts), else as it is.
   */
  static lookup(dir, author = LOCAL_AUTHOR) {
    return new _GitRepository(dir, heldRepositoryFor(dir), author);
  }
  withAuthor(author) {
    return new _GitRepository(this.dir, this.held, author);
  }
  get location() {
    return { cwd: this.dir, held: this.held ? { gitDir: this.held.gitDir, workTree: this.held.workspace } : void 0 };
  }
  /** The command line `args` becomes here (for a process loopgate drives itself). */
  commandLine(args, config) {
    return commandLine(args, this.location, config);
  }
  /** The environment of this repository's git processes, `extra` added. */
  env(extra = {}) {
    return { ...gitEnv(this.author), ...extra };
  }
  /** Any git command, for what has no named operation yet. */
  run(args, opts = {}) {
    return runGit(args, this.location, { ...opts, env: opts.env ?? gitEnv(this.author) });
  }
  async out(args, opts = {}) {
    return (await this.run(args, opts)).stdout;
  }
  /** HEAD's commit. Throws when there is none. */
  async head() {
    return this.revParse("HEAD");
  }
  /** HEAD's commit, or null in a repository without one (or no repository). */
  tryHead() {
    return this.tryRevParse("HEAD^{commit}");
  }
  /** The object `ref` names. Throws when it names none. */
  async revParse(ref, opts = {}) {
    return (await this.out(["rev-parse", "--verify", "--end-of-options", ref], opts)).trim();
  }
  /** The object `ref` names, or null. */
  async tryRevParse(ref) {
    const r = await this.run(["rev-parse", "--verify", "--quiet", "--end-of-options", ref], { okCodes: [1, 128] });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
  /** The git directory commands here use, absolute. */
  async gitDir() {
    return (await this.out(["rev-parse", "--absolute-git-dir"])).trim();
  }
  /** The common git directory (the main repository's for a linked worktree), absolute. */
  async commonDir() {
    return (await this.out(["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  }
  /** The top folder of the work tree containing `dir`, or null outside one. */
  async topLevel() {
    const r = await this.run(["rev-parse", "--show-toplevel"], { okCodes: [128] }).catch(() => null);
    return r && r.exitCode === 0 ? r.stdout.trim() : null;
  }
  /** The short name of HEAD's branch, or null on a detached HEAD. */
  async currentBranch() {
    const r = await this.run(["symbolic-ref", "--quiet", "--short", "HEAD"], { okCodes: [1, 128] });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
  async isShallow() {
    const r = await this.run(["rev-parse", "--is-shallow-repository"], { okCodes: [128] });
    return r.stdout.trim() === "true";
  }
  /** The full message of commit `sha`, or null when git cannot read it here. */
  async commitMessage(sha) {
    const r = await this.run(["log", "-1", "--format=%B", "--end-of-options", sha], { okCodes: [128] }).catch(() => null);
    return r && r.exitCode === 0 ? r.stdout : null;
  }
  async isAncestor(ancestor, commit) {
    return (await this.run(["merge-base", "--is-ancestor", ancestor, commit], { okCodes: [1, 128] })).exitCode === 0;
  }
  /** How many commits `range` holds (`a..b`); `filters` are rev-list options (`--grep=…`). */
  async revListCount(range, filters = []) {
    return Number((await this.out(["rev-list", "--count", ...filters, range, "--"])).trim());
  }
  /** A commit of `tree` with `parents`, `message` given on stdin; its sha. */
  async commitTree(tree, parents, message) {
    return (await this.out(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"], { input: message })).trim();
  }
  /** Moves `ref` to `value`; with `expect`, only from that old value. */
  async updateRef(ref, value, opts = {}) {
    const reason = opts.message === void 0 ? [] : ["-m", opts.message];
    await this.run(["update-ref", ...reason, ref, value, ...opts.expect ? [opts.expect] : []]);
  }
  /** Reads `tree` into the index (`indexFile`: another index than the repository's). */
  async readTree(tree, opts = {}) {
    await this.run(["read-tree", tree], { env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : void 0 });
  }
  /** `git update-index <flags> -z --stdin` over `paths`; the exit code (1 and 128 are answers). */
  async updateIndex(flags, paths, opts = {}) {
    return this.run(["update-index", ...flags, "-z", "--stdin"], {
      input: paths.length ? `${paths.join("\0")}\0` : "",
      okCodes: [1, 128],
      env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : void 0
    });
  }
  /** `git ls-files -z <flags>`: the names it lists. */
  async lsFiles(flags, opts = {}) {
    return zlist(await this.out(["ls-files", "-z", ...flags], { env: opts.indexFile ? this.env({ GIT_INDEX_FILE: opts.indexFile }) : void 0 }));
  }
  async writeTree() {
    return (await this.out(["write-tree"])).trim();
  }
  /**
   * Every path that differs between the working tree, the index and HEAD, untracked files one by
   * one; a nested repository's folder with a trailing `/`.
   */
  async statusPorcelain() {
    const r = await this.out(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"]);
    return r.split("\0").flatMap((rec) => rec.length > 3 ? [rec.slice(3)] : []);
  }
  /** The paths that differ between `from` (default HEAD) and `to` (default: the index). */
  async diffNames(range = {}, pathspec = []) {
    const sides = range.to === void 0 ? ["--cached", ...range.from ? [range.from] : []] : [range.from ?? "HEAD", range.to];
    return zlist(await this.out(["diff", "--name-only", "-z", "--no-renames", ...sides, "--", ...pathspec]));
  }
  /** Stages everything under `pathspec`, deletions included. */
  async addAll(pathspec) {
    await this.run(["add", "-A", "--", ...pathspec]);
  }
  /** Puts `paths` in the index back to HEAD's (names literal). */
  async resetPaths(paths) {
    await this.run(["--literal-pathspecs", "reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: `${paths.join("\0")}\0` });
  }
  /** Whether anything under `pathspec` differs between `from` and `to`. */
  async differs(from, to, pathspec = []) {
    return (await this.run(["diff", "--quiet", from, to, "--", ...pathspec], { okCodes: [1] })).exitCode === 1;
  }
  /** Per-file line counts between `from` and `to`, names raw. */
  async diffNumstat(from, to) {
    const raw = await this.out(["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", from, to, "--"]);
    const entries = [];
    for (const rec of zlist(raw)) {
      const [add, del, ...name] = rec.split("	");
      const count = (n) => n === "-" ? null : Number(n);
      entries.push({ path: name.join("	"), insertions: count(add), deletions: count(del) });
    }
    return entries;
  }
  /** The entries of `tree` (recursively when asked), under `paths` when given. */
  async lsTree(tree, opts = {}) {
    const args = ["ls-tree", "-z", "--full-tree", ...opts.recursive ? ["-r"] : [], tree, "--", ...(opts.paths ?? []).map((p) => `:(literal)${p}`)];
    return zlist(await this.out(args)).map((rec) => {
      const tab = rec.indexOf("	");
      const [mode, type, oid] = rec.slice(0, tab).split(" ");
      return { mode, type, oid, path: rec.slice(tab + 1) };
    });
  }
  /** Many objects through one `git cat-file --batch`, by oid. Throws on a missing one. */
  async catFileBatch(oids) {
    const out = /* @__PURE__ */ new Map();
    if (oids.length === 0) return out;
    const buf = await runGitBinary(["cat-file", "--batch"], this.location, `${oids.join("\n")}
`, gitEnv(this.author));
    let pos = 0;
    for (const oid of oids) {
      const nl = buf.indexOf(10, pos);
      const header = buf.subarray(pos, nl).toString("utf8").split(" ");
      if (header[1] === "missing") throw new Error(`object ${oid} is missing`);
      const size = Number(header[2]);
      out.set(oid, buf.subarray(nl + 1, nl + 1 + size));
      pos = nl + 1 + size + 1;
    }
    return out;
  }
  /** Fetches `refspecs` from `remote` (a name or URL). */
  fetch(remote, refspecs, opts = {}) {
    const depth = opts.depth ? [`--depth=${opts.depth}`] : [];
    const args = ["fetch", "--no-tags", ...opts.quiet === false ? [] : ["--quiet"], ...depth, "--", remote, ...refspecs];
    return this.run(args, { env: opts.env, okCodes: opts.okCodes, secrets: opts.secrets });
  }
  /** Pushes `refspecs` to `remote` (porcelain output, no hooks). */
  push(remote, refspecs, opts = {}) {
    const lease = opts.lease === "force" ? ["--force"] : opts.lease ? [`--force-with-lease=${opts.lease.ref}:${opts.lease.expect ?? ""}`] : [];
    return this.run(["push", "--porcelain", "--no-verify", ...lease, "--", remote, ...refspecs], { env: opts.env, secrets: opts.secrets });
  }
  /** The sha of `ref` on `remote`, or null. */
  async remoteRef(remote, ref, opts = {}) {
    const r = await this.run(["ls-remote", "--", remote, ref], opts);
    const line = r.stdout.split("\n").find((l) => l.endsWith(`	${ref}`));
    return line ? line.split("	")[0] : null;
  }
  /** The settings of a config file read as data, no include followed (`null`: a key without a value). */
  async configList(file, opts = {}) {
    const query = opts.regexp === void 0 ? ["--list"] : ["--get-regexp", opts.regexp];
    const includes = opts.includes ? ["--includes"] : [];
    const r = await this.run(["config", "--file", file, ...includes, "--null", ...query], { okCodes: [1] });
    return zlist(r.stdout).map((rec) => {
      const nl = rec.indexOf("\n");
      return nl < 0 ? { key: rec, value: null } : { key: rec.slice(0, nl), value: rec.slice(nl + 1) };
    });
  }
  /** Removes every `name` from a config file (only those whose value is `value`, when given). */
  async unsetConfig(file, name, value) {
    const match = value === void 0 ? ["--unset-all", name] : ["--fixed-value", "--unset-all", name, value];
    await this.run(["config", "--file", file, ...match], { okCodes: [5] });
  }
};

// src/git/git.ts
function gitArgs(args, opts) {
  const held2 = heldRepositoryFor(opts.cwd);
  return commandLine(args, { cwd: opts.cwd, held: held2 ? { gitDir: held2.gitDir, workTree: held2.workspace } : void 0 }, opts.config);
}
function git(args, opts) {
  const { cwd, ...rest } = opts;
  return GitRepository.lookup(cwd).run(args, rest);
}

export {
  LOCAL_AUTHOR,
  GITHUB_ACTIONS_AUTHOR,
  noreplyAuthor,
  parseCommitAuthor,
  GitError,
  LOOPGATE_GIT_CONFIG,
  gitEnv,
  registerHeld,
  unregisterHeld,
  heldRepositoryFor,
  GitRepository,
  gitArgs,
  git
};
