import { execFile } from 'node:child_process'
import { LOCAL_AUTHOR } from './author.js'
import { type CommitAuthor } from '../settings.js'
import { heldRepositoryFor } from './custody-registry.js'

export interface GitResult {
  stdout: string
  stderr: string
  exitCode: number
}

export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly result: GitResult
  ) {
    super(`git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`)
    this.name = 'GitError'
  }
}

/**
 * Config that makes loopgate's own git deterministic whatever its (own) config says: no hooks,
 * no fsmonitor, no pager, no prompts, no background maintenance. loopgate's git never reads the
 * agent's repository configuration at all (see custody.ts); these only pin behaviour.
 */
export const LOOPGATE_GIT_CONFIG = [
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

export interface GitOptions {
  cwd: string
  /** Extra `-c key=value` settings, after the hardened ones. */
  config?: string[]
  env?: NodeJS.ProcessEnv
  input?: string
  /** Exit codes that are answers, not failures (e.g. 1 for `diff --quiet`). */
  okCodes?: number[]
  maxBuffer?: number
}

/**
 * The full argument list of one loopgate git command: its pinned settings, then, when `cwd` is in
 * a workspace loopgate holds, its own git directory and that work tree.
 */
export function gitArgs(args: string[], opts: Pick<GitOptions, 'cwd' | 'config'>): string[] {
  const held = heldRepositoryFor(opts.cwd)
  // loopgate's own index of a held repository is split: each iteration writes only what changed
  // instead of the whole index (custody.ts joins it again before the repository goes back).
  const config = [...LOOPGATE_GIT_CONFIG, ...(held ? ['core.splitIndex=true'] : []), ...(opts.config ?? [])]
  const location = held ? [`--git-dir=${held.gitDir}`, `--work-tree=${held.workspace}`] : []
  return [...config.flatMap((c) => ['-c', c]), ...location, ...args]
}

/** Runs one git command (see gitArgs). Throws GitError on an unexpected exit. */
export function git(args: string[], opts: GitOptions): Promise<GitResult> {
  const fullArgs = gitArgs(args, opts)
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      { cwd: opts.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const exitCode = err ? (typeof err.code === 'number' ? err.code : 1) : 0
        const result = { stdout, stderr, exitCode }
        if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode)) resolve(result)
        else reject(new GitError(args, result))
      }
    )
    if (opts.input !== undefined) child.stdin?.end(opts.input)
    else child.stdin?.end()
  })
}
