import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { tempDir } from '../helpers/repo.js'

export interface GitHttpRequest {
  method: string
  url: string
  /** Whether it carried `Authorization: basic x-access-token:<token>`. */
  authorized: boolean
}

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'git-http-server.mjs')

/**
 * A private repository host for tests (git-http-server.mjs, in a process of its own so a test can
 * run git synchronously against it): smart HTTP for every bare repository under `root`
 * (`<url>/<owner>/<name>.git`), 401 to any request without the token, as GitHub answers for a
 * private repository.
 */
export class GitHttpServer {
  private child: ChildProcess | null = null
  private readonly log = path.join(tempDir('loopgate-git-http-log-'), 'requests.jsonl')

  constructor(
    private readonly root: string,
    private readonly token: string
  ) {}

  get requests(): GitHttpRequest[] {
    if (!existsSync(this.log)) return []
    return readFileSync(this.log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as GitHttpRequest)
  }

  /** Requests that reached git-upload-pack (fetches, clones, ls-remote), with or without the token. */
  uploadPacks(authorized: boolean): GitHttpRequest[] {
    return this.requests.filter((r) => r.url.includes('git-upload-pack') && r.authorized === authorized)
  }

  async listen(): Promise<string> {
    const child = spawn(process.execPath, [SCRIPT, this.root, this.token, this.log], { stdio: ['ignore', 'pipe', 'inherit'] })
    this.child = child
    return new Promise((resolve, reject) => {
      let out = ''
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString()
        const line = out.split('\n')[0]
        if (out.includes('\n')) resolve(line.trim())
      })
      child.on('exit', (code) => reject(new Error(`git http server exited (${code})`)))
    })
  }

  async close(): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null) return
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  }
}
