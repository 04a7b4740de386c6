import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const AZURITE_BLOB = path.join(ROOT, 'node_modules', '.bin', 'azurite-blob')

/** Azurite's well-known development account (public, documented by Azurite). */
export const DEV_ACCOUNT = 'devstoreaccount1'
export const DEV_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

export interface Azurite {
  /** e.g. http://127.0.0.1:41234/devstoreaccount1 */
  accountUrl: string
  stop(): Promise<void>
}

/** Starts Azurite's blob service on 127.0.0.1 with an ephemeral port and a temp location. */
export function startAzurite(): Promise<Azurite> {
  const location = mkdtempSync(path.join(os.tmpdir(), 'loopgate-azurite-'))
  const child: ChildProcess = spawn(
    AZURITE_BLOB,
    ['--blobHost', '127.0.0.1', '--blobPort', '0', '--location', location, '--skipApiVersionCheck', '--loose', '--disableTelemetry', '--silent'],
    { stdio: ['ignore', 'pipe', 'pipe'] }
  )
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        rmSync(location, { recursive: true, force: true })
        resolve()
      }
      if (child.exitCode !== null || child.signalCode !== null) return done()
      child.once('exit', done)
      child.kill('SIGTERM')
      setTimeout(() => child.kill('SIGKILL'), 3000).unref()
    })
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => {
      void stop()
      reject(new Error(`Azurite did not start: ${out}`))
    }, 30_000)
    const onData = (chunk: Buffer): void => {
      out += chunk.toString()
      const m = /listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        child.stdout?.off('data', onData)
        child.stdout?.resume()
        child.stderr?.resume()
        resolve({ accountUrl: `${m[1]}/${DEV_ACCOUNT}`, stop })
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', (c: Buffer) => (out += c.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`Azurite exited (${code}): ${out}`))
    })
  })
}
