import type { CommitAuthor } from '../settings.js'
import { commandLine, gitEnv, runGit, runGitBinary, type CommandLocation, type GitResult, type RunOptions } from './command-line.js'
import type { HeldRepository } from './custody-registry.js'

export const zlist = (text: string): string[] => text.split('\0').filter(Boolean)

/**
 * What every operation of a GitRepository runs through: its folder and, when loopgate holds it,
 * loopgate's git directory, fixed at construction (see repository.ts for the named operations).
 */
export class RepositoryCore {
  protected constructor(
    readonly dir: string,
    readonly held: HeldRepository | undefined,
    readonly author: CommitAuthor
  ) {}

  protected get location(): CommandLocation {
    return { cwd: this.dir, held: this.held ? { gitDir: this.held.gitDir, workTree: this.held.workspace } : undefined }
  }

  /** The command line `args` becomes here (for a process loopgate drives itself). */
  commandLine(args: string[], config?: string[]): string[] {
    return commandLine(args, this.location, config)
  }

  /** The environment of this repository's git processes, `extra` added. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...gitEnv(this.author), ...extra }
  }

  /** Any git command, for what has no named operation yet. */
  run(args: string[], opts: RunOptions = {}): Promise<GitResult> {
    return runGit(args, this.location, { ...opts, env: opts.env ?? gitEnv(this.author) })
  }

  protected async out(args: string[], opts: RunOptions = {}): Promise<string> {
    return (await this.run(args, opts)).stdout
  }

  protected binary(args: string[], input: string): Promise<Buffer> {
    return runGitBinary({ args, at: this.location, input, env: gitEnv(this.author) })
  }

  protected indexEnv(indexFile: string | undefined): NodeJS.ProcessEnv | undefined {
    return indexFile ? this.env({ GIT_INDEX_FILE: indexFile }) : undefined
  }
}
