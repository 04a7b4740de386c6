import { execFile } from 'node:child_process'

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
 * Configuration that neutralises whatever the agent may have planted in the repository's config:
 * hooks, fsmonitor, credential helpers, pagers, editors and external diff tools. Filters are
 * neutralised per name by `filterOverrides`.
 */
export const HARDENED_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=true',
  'core.askPass=',
  'credential.helper=',
  'diff.external=',
  'safe.directory=*',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'core.attributesFile=/dev/null',
  'core.gitProxy=',
  'core.alternateRefsCommand=',
  'core.sshCommand=false',
  'protocol.ext.allow=never',
  'submodule.recurse=false',
  'uploadpack.packObjectsHook=',
  'gpg.program=false',
  'sequence.editor=true',
  'merge.renormalize=false'
]

/** Keys the repository config may define per name that would run a command in loopgate's git. */
const DRIVER_KEY = /^(filter\.(.+)\.(?:clean|smudge|process)|diff\.(.+)\.(?:textconv|command)|merge\.(.+)\.driver|credential\.(.+)\.helper|remote\.(.+)\.(?:uploadpack|receivepack|proxy)|http\.(.+)\.proxy)$/i

/**
 * `-c` overrides that neutralise every command the repository's config (includes followed) may
 * name: filters, diff/merge drivers, per-URL credential helpers and upload-pack programs. The
 * command line wins over any config file, so these run last.
 */
export async function repoConfigOverrides(cwd: string): Promise<string[]> {
  const r = await git(['config', '--includes', '--list', '--name-only', '-z'], { cwd, okCodes: [1, 128] })
  const overrides = new Set<string>()
  for (const key of r.stdout.split('\0')) {
    const m = DRIVER_KEY.exec(key.trim())
    if (!m) continue
    overrides.add(`${key.trim()}=`)
    if (m[2] !== undefined) overrides.add(`filter.${m[2]}.required=false`)
  }
  return [...overrides]
}

/** The environment of loopgate's own git processes: no global or system config, no prompts. */
export function gitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR']) if (base[key]) env[key] = base[key]
  env.GIT_CONFIG_NOSYSTEM = '1'
  env.GIT_CONFIG_GLOBAL = '/dev/null'
  env.GIT_TERMINAL_PROMPT = '0'
  env.GIT_AUTHOR_NAME = 'loopgate'
  env.GIT_AUTHOR_EMAIL = 'loopgate@users.noreply.github.com'
  env.GIT_COMMITTER_NAME = 'loopgate'
  env.GIT_COMMITTER_EMAIL = 'loopgate@users.noreply.github.com'
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

/** Runs one git command with the hardened configuration. Throws GitError on an unexpected exit. */
export function git(args: string[], opts: GitOptions): Promise<GitResult> {
  const configArgs = [...HARDENED_CONFIG, ...(opts.config ?? [])].flatMap((c) => ['-c', c])
  const fullArgs = [...configArgs, ...args]
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
