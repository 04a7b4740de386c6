import { chownSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { inMountNamespace, withFoldersInPlace, withMounts, type OverlayMount, type ProcessStart } from './mount-namespace.js'
import { quoted } from './reports/command-words.js'

const run = promisify(execFile)

/** What a gate run left in its layer at one path: a file, a folder, a symlink, a deletion (whiteout) or something else. */
type WrittenKind = 'file' | 'dir' | 'symlink' | 'deleted' | 'other'

/** The paths a gate run wrote (created, changed, deleted, chmod-ed), and the folders it made anew (hiding what the checkout had there). */
export interface LayerWrites {
  paths: Map<string, WrittenKind>
  remade: Set<string>
  /** The layer's upper folder: what the run wrote, at each path's own place. */
  upper: string
}

/**
 * The dependency folders: the judge's own code (the runner, its plugins, their bins) is in them, so
 * nothing in them, nor the folders themselves, is given to the gate user in the layer; they stay as
 * the checkout has them (read-only, their cache folders the gate user's, see pristine-deps.ts).
 */
const DEPENDENCY_TREES = ['node_modules', '.venv', 'venv', '__pypackages__', 'site-packages']

/**
 * One gate run's copy-on-write layer over the checkout (see docs/gate-toolchain.md): made in a
 * root-only folder, mounted for each step of the run in a mount namespace of that step's own, and
 * thrown away after the run. Before the first step, root gives the layer's folders and every file
 * but `readOnly` to the gate user (overlayfs copies up only their metadata), `writable` made writable
 * to it (the checkout holds protected files read-only); what is there then is
 * recorded, so the run's own writes are told apart from that: an entry the run created, replaced,
 * wrote or chmod-ed has a new inode or change time, which no process can set back.
 */
export class WriteLayer {
  readonly mount: OverlayMount
  private before: Map<string, string> | null = null
  private preparing: Promise<void> | null = null

  constructor(
    private readonly root: string,
    target: string,
    private readonly opts: {
      user?: { uid: number; gid: number }
      readOnly: () => readonly string[]
      writable: () => readonly string[]
      /** Root dependency folders the run may write (as a writable copy once gave it): given to the gate user in the layer. */
      writableDeps?: () => readonly string[]
      /** Package caches mounted in the run's HOME, each over a template no run writes (see package-caches.ts). */
      caches?: readonly { lower: string; target: string }[]
      /** What gate-setup's kept install wrote in the tree (see kept-project.ts), shown over the checkout; read at each mount. */
      over?: () => string | null
    }
  ) {
    mkdirSync(root, { recursive: true, mode: 0o700 })
    this.mount = { target, upper: path.join(root, 'upper'), work: path.join(root, 'work') }
    for (const d of [this.mount.upper, this.mount.work]) mkdirSync(d, { mode: 0o755 })
    this.caches = (opts.caches ?? []).map((c, i) => {
      const upper = path.join(root, 'caches', String(i))
      mkdirSync(upper, { recursive: true, mode: 0o700 })
      // The mount's root is its upper folder: the gate user's, as the template's folders are.
      if (opts.user) chownSync(upper, opts.user.uid, opts.user.gid)
      return { target: c.target, lower: c.lower, upper, work: '', canonical: true }
    })
  }

  private readonly caches: OverlayMount[]

  /** The overlay for one mount: a volatile one (nothing of it is synced to disk) leaves its work folder unusable, so each mount has its own. */
  private nextMount(): OverlayMount {
    const work = path.join(this.mount.work, String(this.mounts++))
    mkdirSync(work, { mode: 0o755 })
    const over = this.opts.over?.()
    return { ...this.mount, work, ...(over ? { lower: `${over}:${this.mount.target}` } : {}) }
  }

  /** The cache mounts for one step, each with a work folder of its own. */
  private cacheMounts(): OverlayMount[] {
    return this.caches.map((c) => {
      const work = path.join(this.mount.work, String(this.mounts++))
      mkdirSync(work, { mode: 0o755 })
      return { ...c, work }
    })
  }

  /** Whether the run's package caches come through the layer. */
  get hasCaches(): boolean {
    return this.caches.length > 0
  }

  /**
   * How a step starts on the checkout itself (gate-setup's kept install, see setup-step.ts), with
   * only the run's package caches mounted: as the gate user.
   */
  startOutside(script: string): ProcessStart {
    return withMounts(script, { mounts: this.cacheMounts(), cwd: this.mount.target }, this.opts.user)
  }

  private mounts = 0

  /**
   * How gate-setup's kept install of the project starts (see kept-project.ts): in this layer, as
   * the gate user, but with `folders` (the dependency folders it installs) written in place.
   */
  async startInPlace(script: string, folders: readonly string[], stash: string): Promise<ProcessStart> {
    this.preparing ??= this.prepare()
    await this.preparing
    return withFoldersInPlace(script, { layer: this.nextMount(), folders, stash, mounts: this.cacheMounts() }, this.opts.user)
  }

  /** How one step of the run starts: in the layer, as the gate user (once the layer is prepared). */
  async start(script: string): Promise<ProcessStart> {
    this.preparing ??= this.prepare()
    await this.preparing
    return inMountNamespace(script, [this.nextMount(), ...this.cacheMounts()], this.opts.user)
  }

  /** Whether a step ran in the layer: before that, nothing was written through it. */
  get used(): boolean {
    return this.preparing !== null
  }

  private async prepare(): Promise<void> {
    const prune = DEPENDENCY_TREES.flatMap((name) => ['-o', '-name', name]).slice(1)
    const outsideDeps = `find . -xdev \\( ${prune.map(quoted).join(' ')} \\) -prune -o`
    const user = this.opts.user
    // Without a gate user the folders are still copied up first: a folder the run only adds to is
    // then told apart from one it made anew, which would hide what the checkout holds there.
    const give = user
      ? [
          `${outsideDeps} -print0 | xargs -0r chown -h ${user.uid}:${user.gid} --`,
          `xargs -0r -a ${quoted(this.list('read-only', this.opts.readOnly()))} chown -h 0:0 -- 2>/dev/null`,
          `xargs -0r -a ${quoted(this.list('writable', this.opts.writable()))} chmod u+w -- 2>/dev/null`,
          // Metadata only (metacopy): no file of a dependency folder is copied for it.
          ...(this.opts.writableDeps?.() ?? []).map((name) => `find ./${quoted(name)} -xdev -print0 | xargs -0r chown -h ${user.uid}:${user.gid} --`),
          'true'
        ].join('; ')
      : `${outsideDeps} -type d -print0 | xargs -0r touch -c -a --; true`
    const start = inMountNamespace(give, this.nextMount())
    await run(start.command, start.args, { cwd: '/', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 600_000 }).catch(
      (err: { stderr?: string }) => {
        throw new Error(
          `the gate run's write layer could not be prepared: ${String(err.stderr ?? err)
            .trim()
            .slice(-500)}`
        )
      }
    )
    this.before = walk(this.mount.upper)
  }

  /** A NUL-separated list of checkout paths for xargs, in the layer's root-only folder. */
  private list(name: string, rels: readonly string[]): string {
    const file = path.join(this.root, name)
    writeFileSync(file, rels.map((rel) => `./${rel}\0`).join(''), { mode: 0o600 })
    return file
  }

  /** What the run wrote so far (see LayerWrites). */
  writes(): LayerWrites {
    const before = this.before ?? new Map<string, string>()
    const now = walk(this.mount.upper)
    const paths = new Map<string, WrittenKind>()
    const remade = new Set<string>()
    for (const [rel, key] of now) {
      if (before.get(rel) === key) continue
      const kind = key.split(':')[0] as WrittenKind
      paths.set(rel, kind)
      // A folder with its old inode only had entries added or removed; a new inode hides what the checkout had there.
      const was = before.get(rel)
      if (kind === 'dir' && was?.split(':')[1] !== key.split(':')[1]) remade.add(rel)
    }
    return { paths, remade, upper: this.mount.upper }
  }
}

/** Every entry under `upper`, keyed by relative path: its kind, inode and change time. */
function walk(upper: string): Map<string, string> {
  const out = new Map<string, string>()
  const visit = (dir: string, rel: string): void => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const full = path.join(dir, name)
      const r = rel ? `${rel}/${name}` : name
      let st
      try {
        st = lstatSync(full, { bigint: true })
      } catch {
        continue
      }
      const kind: WrittenKind = st.isDirectory()
        ? 'dir'
        : st.isFile()
          ? 'file'
          : st.isSymbolicLink()
            ? 'symlink'
            : st.isCharacterDevice() && st.rdev === 0n
              ? 'deleted'
              : 'other'
      out.set(r, `${kind}:${st.ino}:${st.ctimeNs}`)
      if (kind === 'dir') visit(full, r)
    }
  }
  visit(upper, '')
  return out
}
