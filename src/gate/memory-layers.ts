import { lstatSync, mkdtempSync, readdirSync, readlinkSync, statfsSync } from 'node:fs'
import path from 'node:path'
import { removeInBackground } from '../fs/remove-in-background.js'
import { probeOverlayIn } from './mount-namespace.js'

/**
 * A gate run's write layer holds what the run writes, and, before it starts, an inode for every
 * file of the checkout (root gives them to the gate user, and overlayfs copies up their metadata):
 * on a disk that costs about what writing the tree costs, for every gate run. The layer is thrown
 * away after its run, so it is made in memory (tmpfs, `/dev/shm`) where the machine has one with
 * room, in a root-only folder of its own (mkdtemp: a name nobody can take first); else on the disk,
 * in the gate's private folder.
 */
const MEMORY = '/dev/shm'
/** A suite's own writes go there too: below this much free memory the layer is made on the disk. */
const MIN_FREE_BYTES = 2 * 1024 ** 3
const PREFIX = 'loopgate-layer-'

/**
 * A layer folder is named by its process (its PID namespace and pid): a run knows another run's
 * process is gone only when both are in one PID namespace. A folder of another namespace is never
 * removed here.
 */
function pidNamespace(): string {
  try {
    return /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0] ?? '0'
  } catch {
    // no /proc: one namespace is all there is to tell
    return '0'
  }
}

const processTag = (): string => `${pidNamespace()}-${process.pid}`

let memory: string | null | undefined
let probing: Promise<string | null> | undefined

function isTmpfs(dir: string): boolean {
  try {
    // TMPFS_MAGIC
    return statfsSync(dir).type === 0x01021994 && lstatSync(dir).isDirectory()
  } catch {
    return false
  }
}

function freeBytes(dir: string): number {
  try {
    const s = statfsSync(dir)
    return s.bavail * s.bsize
  } catch {
    return 0
  }
}

/**
 * Whether layers can be made in memory here (root, a tmpfs `/dev/shm`, an overlay with metacopy
 * mounted over it): begun with the gate's set-up, asked once per process. Layers a killed run left
 * there (their process gone) are removed meanwhile.
 */
export function probeMemoryLayers(): Promise<string | null> {
  if (memory !== undefined) return Promise.resolve(memory)
  if (process.getuid?.() !== 0 || !isTmpfs(MEMORY)) return Promise.resolve((memory = null))
  probing ??= (async () => {
    sweepLeftLayers()
    let scratch: string
    try {
      scratch = mkdtempSync(path.join(MEMORY, `${PREFIX}${processTag()}-`))
    } catch {
      return (memory = null)
    }
    const why = await probeOverlayIn(scratch)
    removeInBackground([scratch])
    return (memory = why === null ? MEMORY : null)
  })()
  return probing
}

/** A fresh root-only folder for one gate run's layer in memory, or null (none probed, or too little room). */
export function memoryLayerRoot(): string | null {
  if (!memory || freeBytes(memory) < MIN_FREE_BYTES) return null
  try {
    return mkdtempSync(path.join(memory, `${PREFIX}${processTag()}-`))
  } catch {
    return null
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Root's layer folders whose run is gone (killed mid-run): memory nothing else gives back. Another run's, alive, are never touched. */
function sweepLeftLayers(): void {
  let names: string[]
  try {
    names = readdirSync(MEMORY)
  } catch {
    return
  }
  const left: string[] = []
  const ours = new RegExp(`^${PREFIX}${pidNamespace()}-(\\d+)-`)
  for (const name of names) {
    const pid = ours.exec(name)?.[1]
    if (!pid || Number(pid) === process.pid || alive(Number(pid))) continue
    const full = path.join(MEMORY, name)
    try {
      const st = lstatSync(full)
      if (st.isDirectory() && st.uid === 0) left.push(full)
    } catch {
      continue
    }
  }
  removeInBackground(left)
}
