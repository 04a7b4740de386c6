import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { ProcessStart } from './mount-namespace.js'
import { systemProgram } from '../process/system-program.js'
import type { WriteLayer } from './write-layer.js'

/**
 * gate-setup's kept install when it ends with the project's own editable install (see
 * toolchain/setup-installs.ts): the dependency folders are written in place, as any kept install
 * writes them, and what the project's build writes elsewhere in the tree (a hatch-vcs version file,
 * an `*.egg-info`) lands in a write layer of its own. Once the install has ended, those files are
 * copied into a root-only folder that every later gate run's layer shows over the checkout, as a
 * fresh install on the same project files would have left them. A build that deletes a path, or
 * writes a protected one, is not kept: each gate run then installs the project itself.
 */
export class KeptProject {
  private readonly files: string
  private layer: WriteLayer | null = null
  /** The folder shown over the checkout, once the install is kept and wrote anything in the tree. */
  over: string | null = null

  /** `open` makes the install's write layer in the folder it is given. */
  constructor(
    private readonly dir: string,
    private readonly open: (root: string) => WriteLayer
  ) {
    this.files = path.join(dir, 'files')
  }

  /** How the install starts: the dependency `folders` in place, the rest of the tree in a layer of its own. */
  start(script: string, folders: readonly string[]): Promise<ProcessStart> {
    this.over = null
    rmSync(this.dir, { recursive: true, force: true })
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    this.layer = this.open(path.join(this.dir, 'layer'))
    return this.layer.startInPlace(script, folders, path.join(this.dir, 'stash'))
  }

  /**
   * After the install ended well: its writes in the tree kept (see the class); why not, when they
   * cannot be. `folders` are the dependency folders, `isProtected` the gate's protected paths.
   */
  keep(folders: readonly string[], isProtected: (rel: string) => boolean): string | null {
    const layer = this.layer
    if (!layer) return 'it did not run'
    const files: string[] = []
    for (const [rel, kind] of layer.writes().paths) {
      if (folders.some((f) => rel === f || rel.startsWith(`${f}/`))) return `it wrote ${rel} past its dependency folder`
      if (kind === 'deleted' || kind === 'other') return `it deleted or replaced ${rel}`
      if (kind !== 'dir' && isProtected(rel)) return `it wrote the protected ${rel}`
      if (kind === 'file' || kind === 'symlink') files.push(rel)
    }
    if (files.length === 0) return null
    // Read through the layer (a file whose mode alone changed holds no data of its own in it), as root.
    const list = path.join(this.dir, 'files.list')
    writeFileSync(list, files.map((rel) => `./${rel}\0`).join(''), { mode: 0o600 })
    mkdirSync(this.files, { mode: 0o755 })
    const [unshare, mountBin] = ['unshare', 'mount'].map((name) => systemProgram(name) ?? `/usr/bin/${name}`)
    const copy = `${mountBin} -t overlay loopgate-gate -o "lowerdir=$1:$2,metacopy=on" "$2" && cd "$2" && xargs -0r -a "$3" cp -a --no-dereference --parents -t "$4" --`
    execFileSync(unshare, ['--mount', '--propagation', 'private', '--', '/bin/sh', '-c', copy, 'sh', layer.mount.upper, layer.mount.target, list, this.files], {
      stdio: 'pipe',
      timeout: 600_000
    })
    execFileSync('chown', ['-hR', '0:0', this.files])
    execFileSync('chmod', ['-R', 'go-w', this.files])
    this.over = this.files
    return null
  }
}
