import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { discardInBackground } from '../../fs/remove-in-background.js'
import { GateRepository } from '../../git/gate-repository.js'
import type { GitRepository } from '../../git/repository.js'

/** Where the gate's private repository and its checkout live (see CleanCheckout). */
export interface GateLocation {
  workspace: string
  /** The workspace's repository (through loopgate's git directory while it holds it): its objects are the gate's. */
  repository: GitRepository
  /** Root-only: the private git dir. */
  privateDir: string
  /** Reachable by the gate user: the checkout. */
  gateDir: string
}

export const gateRepoOf = (loc: Pick<GateLocation, 'privateDir'>): string => path.join(loc.privateDir, 'repo.git')
export const checkoutDirOf = (loc: Pick<GateLocation, 'gateDir'>): string => path.join(loc.gateDir, 'checkout')
/** Root-only: each gate run's write layer (see gate-layers.ts). */
export const layersDirOf = (loc: Pick<GateLocation, 'privateDir'>): string => path.join(loc.privateDir, 'layers')
export const gateIndexOf = (loc: Pick<GateLocation, 'privateDir'>): string => path.join(gateRepoOf(loc), 'index')

/** loopgate's git on the gate's private repository, its checkout and index. */
export const gateRepositoryOf = (loc: Pick<GateLocation, 'privateDir' | 'gateDir'>): GateRepository =>
  new GateRepository({ gitDir: gateRepoOf(loc), workTree: checkoutDirOf(loc), indexFile: gateIndexOf(loc) })

/**
 * After the run: the gate's checkout (with its home and temp) and its private repository and
 * pristine dependency copies are of no more use; they are moved aside at once and deleted in the
 * background. The run folder keeps the attempt log and the bodies.
 */
export function disposeGateLocation(loc: GateLocation): void {
  discardInBackground([loc.gateDir, loc.privateDir])
}

/**
 * The gate's private git dir: loopgate's own (no config, hooks or attributes of the agent's), with
 * the workspace's objects as alternates; and the folder the checkout goes in. It is laid out as
 * `git init --bare --template=` lays one out (HEAD, a config of its own, objects, refs), without
 * a process: it is the first step of the setup's slowest part.
 */
export async function createGateRepo(loc: GateLocation): Promise<void> {
  const repo = gateRepoOf(loc)
  mkdirSync(loc.privateDir, { recursive: true, mode: 0o700 })
  chmodSync(loc.privateDir, 0o700)
  rmSync(repo, { recursive: true, force: true })
  const objects = await loc.repository.objectsDir()
  for (const dir of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) mkdirSync(path.join(repo, dir), { recursive: true, mode: 0o755 })
  writeFileSync(path.join(repo, 'HEAD'), 'ref: refs/heads/main\n')
  writeFileSync(path.join(repo, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = true\n')
  writeFileSync(path.join(repo, 'objects', 'info', 'alternates'), `${objects}\n`)
  mkdirSync(loc.gateDir, { recursive: true, mode: 0o711 })
  chmodSync(loc.gateDir, 0o711)
}

/** A clean checkout begun before the rest of the setup; the gate adopts it (see CleanCheckout). */
export interface FirstCheckout {
  commit: string
  /** The private repository, once made (the checkout's own setup waits for it). */
  repo: Promise<void>
  /** True once `commit` is checked out; false when it could not be (the gate then checks out itself). */
  done: Promise<boolean>
}

/**
 * Begins the gate's first clean checkout as soon as loopgate holds the repository: writing a large
 * tree is the slowest step before the first verdict and needs nothing of the rest of the setup
 * (the users, the snapshot, the agent's hand-over). Nothing runs in the folder until the gate takes
 * it over, and the gate verifies it like any other checkout.
 */
export function beginFirstCheckout(loc: GateLocation, commit: string): FirstCheckout {
  const repo = createGateRepo(loc)
  const done = repo.then(async () => {
    mkdirSync(checkoutDirOf(loc), { mode: 0o755 })
    await gateRepositoryOf(loc).checkout(commit)
    return true
  })
  return { commit, repo, done: done.catch(() => false) }
}
