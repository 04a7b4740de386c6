import { execFileSync } from 'node:child_process'
import { lstatSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { ConfigError } from '../errors.js'
import { registerHeld, unregisterHeld, type HeldRepository } from './custody-registry.js'
import { GitRepository } from './repository.js'

/**
 * For the length of a run loopgate holds the workspace's `.git` itself: the directory is moved
 * into loopgate's root-only run directory, and the agent works in a copy of it with a fresh,
 * minimal configuration. Every git command loopgate runs in the workspace (commit, tamper check,
 * gate checkout, publishing, the post step) uses its own git directory, whose configuration,
 * hooks, index and objects the agent never touched; what the agent does to its copy (filters,
 * `core.worktree`, hooks, symlinks, locks, its own commits) can only affect the agent. At the end
 * the agent's copy is deleted and the original put back, holding loopgate's commits.
 */

export interface Custody extends HeldRepository {
  /** The root-only record the post step (or a later run) reads to give the repository back. */
  record: string
}

const RECORD = 'custody.json'
const USER_CONFIG = 'config.user'

function lstatOrNull(file: string) {
  try {
    return lstatSync(file)
  } catch {
    return null
  }
}

/** rename, or copy and remove when the two paths are on different filesystems. */
function move(from: string, to: string): void {
  try {
    renameSync(from, to)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err
    execFileSync('cp', ['-a', '--reflink=auto', from, to], { stdio: 'pipe' })
    rmSync(from, { recursive: true, force: true })
  }
}

/** The keys a working repository needs, read from a config file as data (no includes, nothing run). */
async function essentialConfig(configFile: string, cwd: string): Promise<string> {
  const settings = await GitRepository.plain(cwd).configList(configFile, { regexp: '^(core\\.repositoryformatversion|extensions\\..*|remote\\.origin\\.url)$' })
  const lines = ['[core]', '\tfilemode = true', '\tbare = false', '\tlogallrefupdates = true']
  const extensions: string[] = []
  let origin: string | null = null
  for (const setting of settings) {
    const key = setting.key.toLowerCase()
    const value = setting.value
    if (value === null || /[\n\r"\\]/.test(value)) continue
    if (key === 'core.repositoryformatversion' && /^\d+$/.test(value)) lines.push(`\trepositoryformatversion = ${value}`)
    else if (key.startsWith('extensions.') && /^[a-z0-9]+$/i.test(key.slice(11)) && /^[\w.-]+$/.test(value)) extensions.push(`\t${key.slice(11)} = ${value}`)
    else if (key === 'remote.origin.url') origin = value
  }
  if (extensions.length) lines.push('[extensions]', ...extensions)
  if (origin !== null) lines.push('[remote "origin"]', `\turl = "${origin}"`, '\tfetch = +refs/heads/*:refs/remotes/origin/*')
  return `${lines.join('\n')}\n`
}

/** Credentials a URL may carry (`https://user:token@host/...`) are not the agent's. */
function withoutUserInfo(config: string): string {
  return config.replace(/(url = "[a-z][a-z0-9+.-]*:\/\/)[^@/"]*@/i, '$1')
}

/**
 * Takes the workspace's git directory into loopgate's run directory (root-only) before the agent's
 * first call and gives the agent a copy of it. Re-entrant: a workspace already held is returned.
 */
export async function takeCustody(workspace: string, runDir: string): Promise<Custody> {
  const ws = path.resolve(workspace)
  const record = path.join(runDir, RECORD)
  const existing = readCustodyRecord(runDir)
  if (existing && existing.workspace === ws) {
    registerHeld(existing)
    return existing
  }
  const dotGit = path.join(ws, '.git')
  const st = lstatOrNull(dotGit)
  if (!st || !st.isDirectory()) {
    throw new ConfigError(
      'working-directory',
      workspace,
      `the top folder of a git repository with a commit (a .git directory${st ? `; here .git is ${st.isSymbolicLink() ? 'a symlink' : 'a file (a linked worktree or submodule)'}` : ''})`
    )
  }
  const gitDir = path.join(runDir, 'git')
  const custody: Custody = { workspace: ws, gitDir, record }
  writeFileSync(record, JSON.stringify({ workspace: ws, gitDir }), { mode: 0o600 })
  move(dotGit, gitDir)
  try {
    const userConfig = path.join(gitDir, USER_CONFIG)
    renameSync(path.join(gitDir, 'config'), userConfig)
    const config = await essentialConfig(userConfig, runDir)
    writeFileSync(path.join(gitDir, 'config'), config, { mode: 0o600 })
    // The agent's copy: the same history, index and refs, a configuration with nothing of the user's.
    execFileSync('cp', ['-a', '--reflink=auto', gitDir, dotGit], { stdio: 'pipe' })
    rmSync(path.join(dotGit, USER_CONFIG), { force: true })
    writeFileSync(path.join(dotGit, 'config'), withoutUserInfo(config), { mode: 0o644 })
  } catch (err) {
    await giveBack(custody)
    throw err
  }
  registerHeld(custody)
  return custody
}

/** The custody recorded in a run directory (the post step's view), if the repository is still held. */
export function readCustodyRecord(runDir: string): Custody | null {
  const record = path.join(runDir, RECORD)
  try {
    const st = lstatSync(record)
    if (!st.isFile()) return null
    const data = JSON.parse(readFileSync(record, 'utf8')) as { workspace?: unknown; gitDir?: unknown }
    if (typeof data.workspace !== 'string' || typeof data.gitDir !== 'string') return null
    if (!lstatOrNull(data.gitDir)?.isDirectory()) return null
    return { workspace: data.workspace, gitDir: data.gitDir, record }
  } catch {
    return null
  }
}

/** The repository's own configuration, kept aside while loopgate holds it (read as data only). */
export function userConfigOf(custody: HeldRepository): string {
  const kept = path.join(custody.gitDir, USER_CONFIG)
  return lstatOrNull(kept)?.isFile() ? kept : path.join(custody.gitDir, 'config')
}

/** Re-registers a held repository (the post step), so its git commands use loopgate's git dir. */
export function resumeCustody(custody: Custody): void {
  registerHeld(custody)
}

/**
 * loopgate's index was split while it held the repository (see command-line.ts); it goes back whole, as
 * the repository came, for the tools of later steps that read the index themselves. When git
 * cannot join it (a lock left by a killed run) the split index goes back as it is: git reads it.
 */
async function joinSplitIndex(custody: Custody): Promise<void> {
  const joined = await GitRepository.held(custody)
    .run(['update-index', '--no-split-index'], { config: ['core.splitIndex=false'], okCodes: [128] })
    .catch(() => null)
  if (!joined || joined.exitCode !== 0) return
  for (const name of readdirSync(custody.gitDir)) if (/^sharedindex\.[0-9a-f]{40,64}$/.test(name)) rmSync(path.join(custody.gitDir, name), { force: true })
}

async function giveBack(custody: Custody): Promise<void> {
  const dotGit = path.join(custody.workspace, '.git')
  // Whatever the agent left there (its copy, a symlink, a file) is removed, never followed.
  rmSync(dotGit, { recursive: true, force: true })
  const userConfig = path.join(custody.gitDir, USER_CONFIG)
  if (lstatOrNull(userConfig)?.isFile()) renameSync(userConfig, path.join(custody.gitDir, 'config'))
  move(custody.gitDir, dotGit)
  rmSync(custody.record, { force: true })
}

/**
 * Ends the custody: every agent process must be gone. The agent's copy is deleted, the original
 * `.git` (with loopgate's commits) goes back, owned by `owner` (`uid:gid`) when given.
 */
export async function returnCustody(custody: Custody, owner?: { uid: number; gid: number }): Promise<void> {
  await joinSplitIndex(custody)
  unregisterHeld(custody.workspace)
  await giveBack(custody)
  if (owner && process.getuid?.() === 0) {
    execFileSync('chown', ['-hR', `${owner.uid}:${owner.gid}`, path.join(custody.workspace, '.git')], { stdio: 'pipe' })
  }
}

/** Runs `fn` with the workspace's repository held; it is given back however `fn` ends. */
export async function withCustody<T>(workspace: string, runDir: string, fn: (custody: Custody) => Promise<T>): Promise<T> {
  const ws = path.resolve(workspace)
  const owner = lstatOrNull(ws)
  const already = readCustodyRecord(runDir)
  if (already && already.workspace === ws) {
    registerHeld(already)
    return fn(already)
  }
  const custody = await takeCustody(ws, runDir)
  try {
    return await fn(custody)
  } finally {
    await returnCustody(custody, owner ? { uid: owner.uid, gid: owner.gid } : undefined)
  }
}
