import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { DIST_INDEX, ROOT, runAction, type ActionRun, type ActionRunOptions } from '../helpers/action-runner.js'
import { LocalCacheService } from './server.js'

const execFileAsync = promisify(execFile)

export const FIX = `sed -i 's/a - b/a + b/' src/math.mjs`

/** Inputs every state scenario shares: the command agent, the tiny project's gate, dry run. */
export function baseInputs(loopId: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    agent: 'command',
    prompt: 'Make add() add.',
    'gate-command': 'node test/run.mjs',
    'dry-run': 'true',
    'loop-id': loopId,
    'github-token': 'ghs_stateFakeToken00000000000000000001',
    ...extra
  }
}

export function runWithCache(svc: LocalCacheService, opts: ActionRunOptions): Promise<ActionRun> {
  return runAction({ ...opts, env: { ...svc.env(), ...(opts.env ?? {}) } })
}

export function stateFile(runnerTemp: string, loopId: string): string {
  return path.join(runnerTemp, 'loopgate-state', loopId, 'state.json')
}

export function readState(runnerTemp: string, loopId: string): Record<string, any> {
  return JSON.parse(readFileSync(stateFile(runnerTemp, loopId), 'utf8')) as Record<string, any>
}

export function progressLines(repo: string): string[] {
  return readFileSync(path.join(repo, '.loopgate/progress.md'), 'utf8').trim().split('\n')
}

export function ledgerEntries(logFile: string): Record<string, any>[] {
  const file = path.join(path.dirname(logFile), 'ledger.jsonl')
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)
}

/**
 * Saves `text` as the loop's state.json under `key` with the real @actions/cache library, as an
 * earlier run would have (used to plant a corrupt state).
 */
export async function plantState(
  svc: LocalCacheService,
  opts: { runnerTemp: string; workspace: string; loopId: string; key: string; text: string }
): Promise<void> {
  const dir = path.dirname(stateFile(opts.runnerTemp, opts.loopId))
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, 'state.json'), opts.text)
  // As loopgate saves it: from the state root, under the state directory's bare name.
  const root = path.dirname(dir)
  const cacheModule = JSON.stringify(path.join(ROOT, 'node_modules', '@actions', 'cache', 'lib', 'cache.js'))
  const code = `import(${cacheModule}).then(async (c) => { const id = await c.saveCache([${JSON.stringify(path.basename(dir))}], ${JSON.stringify(opts.key)}); if (id < 0) process.exit(3) })`
  await execFileAsync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? '/root',
      ...svc.env(),
      GITHUB_WORKSPACE: root,
      RUNNER_TEMP: opts.runnerTemp,
      GITHUB_SERVER_URL: 'https://github.com'
    }
  })
  rmSync(dir, { recursive: true, force: true })
}

/** Waits until `file` exists (e.g. written by a scripted agent mid-call). */
export async function waitForFile(file: string, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!existsSync(file)) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${file}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** A local cache service for the enclosing describe block, started once for it (the bundled action must exist). */
export function useCacheService(): LocalCacheService {
  const svc = new LocalCacheService()
  beforeAll(async () => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
    await svc.start()
  })
  afterAll(async () => {
    await svc.stop()
  })
  return svc
}
