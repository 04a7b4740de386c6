import { execFile, spawn } from 'node:child_process'
import { LOCAL_AUTHOR } from './author.js'
import type { CommitAuthor } from '../settings.js'

export interface GitResult {
  stdout: string
  stderr: string
  exitCode: number
}

/** Texts that never appear in an error (tokens and their encodings): each becomes `***`. */
type Secrets = readonly string[]

function redact(text: string, secrets: Secrets): string {
  return secrets.reduce((t, s) => (s ? t.split(s).join('***') : t), text)
}

export class GitError extends Error {
  readonly args: string[]
  readonly result: GitResult
  constructor(args: string[], result: GitResult, secrets: Secrets = []) {
    const clean = { ...result, stdout: redact(result.stdout, secrets), stderr: redact(result.stderr, secrets) }
    const shown = args.map((a) => redact(a, secrets))
    super(`git ${shown.join(' ')} failed (exit ${result.exitCode}): ${clean.stderr.trim() || clean.stdout.trim()}`)
    this.name = 'GitError'
    this.args = shown
    this.result = clean
  }
}

/**
 * Config that makes loopgate's own git deterministic whatever its (own) config says: no hooks,
 * no fsmonitor, no pager, no prompts, no background maintenance. loopgate's git never reads the
 * agent's repository configuration at all (see custody.ts); these only pin behaviour.
 */
const LOOPGATE_GIT_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=true',
  'core.askPass=',
  'credential.helper=',
  'safe.directory=*',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'protocol.ext.allow=never',
  'submodule.recurse=false'
]

/** The workers of a checkout that writes a whole tree (git's parallel checkout, from 100 files). */
export const CHECKOUT_WORKERS = 4

/**
 * The environment of loopgate's own git processes: no global or system config, no prompts, and
 * `author` as the author and committer of what they commit.
 */
export function gitEnv(author: CommitAuthor = LOCAL_AUTHOR, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR']) if (base[key]) env[key] = base[key]
  env.GIT_CONFIG_NOSYSTEM = '1'
  env.GIT_CONFIG_GLOBAL = '/dev/null'
  env.GIT_TERMINAL_PROMPT = '0'
  env.GIT_AUTHOR_NAME = author.name
  env.GIT_AUTHOR_EMAIL = author.email
  env.GIT_COMMITTER_NAME = author.name
  env.GIT_COMMITTER_EMAIL = author.email
  env.LC_ALL = 'C'
  return env
}

/** Where one git command runs: a folder, and when loopgate holds the repository, its own git directory. */
export interface CommandLocation {
  cwd: string
  /** loopgate's git directory of a held repository, with `cwd`'s repository root as the work tree. */
  held?: { gitDir: string; workTree: string }
}

export interface RunOptions {
  /** Extra `-c key=value` settings, after the hardened ones. */
  config?: string[]
  env?: NodeJS.ProcessEnv
  input?: string | Buffer
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: number[]
  maxBuffer?: number
  /** Texts kept out of a GitError (a token the command's environment carries). */
  secrets?: Secrets
  /** Runs as this user (the agent's, in the agent's own repository) instead of loopgate's. */
  as?: { uid: number; gid: number }
}

/**
 * The full argument list of one loopgate git command: its pinned settings, then, for a held
 * repository, its own git directory and that work tree. The one place a git command line is built.
 */
export function commandLine(args: string[], at: CommandLocation, config: string[] = []): string[] {
  // loopgate's own index of a held repository is split: each iteration writes only what changed
  // instead of the whole index (custody.ts joins it again before the repository goes back).
  const pinned = [...LOOPGATE_GIT_CONFIG, ...(at.held ? ['core.splitIndex=true'] : []), ...config]
  const location = at.held ? [`--git-dir=${at.held.gitDir}`, `--work-tree=${at.held.workTree}`] : []
  return [...pinned.flatMap((c) => ['-c', c]), ...location, ...args]
}

/** Runs one git command (see commandLine). Throws GitError on an unexpected exit. */
export function runGit(args: string[], at: CommandLocation, opts: RunOptions = {}): Promise<GitResult> {
  const fullArgs = commandLine(args, at, opts.config)
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      { cwd: at.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: 'utf8', uid: opts.as?.uid, gid: opts.as?.gid },
      (err, stdout, stderr) => {
        const exitCode = err ? (typeof err.code === 'number' ? err.code : 1) : 0
        const result = { stdout, stderr, exitCode }
        if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode)) resolve(result)
        else reject(new GitError(args, result, opts.secrets))
      }
    )
    if (opts.input !== undefined) child.stdin?.end(opts.input)
    else child.stdin?.end()
  })
}

/** A git command whose output is bytes, where it runs, what it reads on stdin. */
interface BinaryGitCommand {
  args: string[]
  at: CommandLocation
  input: string
  env?: NodeJS.ProcessEnv
}

/** Runs one git command whose output is bytes (`cat-file --batch`). */
export function runGitBinary({ args, at, input, env = gitEnv() }: BinaryGitCommand): Promise<Buffer> {
  const child = spawn('git', commandLine(args, at), { cwd: at.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
  const out: Buffer[] = []
  const err: Buffer[] = []
  child.stdout.on('data', (c: Buffer) => out.push(c))
  child.stderr.on('data', (c: Buffer) => err.push(c))
  child.stdin.end(input)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new GitError(args, { stdout: '', stderr: Buffer.concat(err).toString('utf8'), exitCode: code ?? 1 }))
    })
  })
}
