/**
 * Each gate run's write layer is made in memory (a tmpfs /dev/shm with room) in a root-only folder
 * of its own; a layer a killed run left there is removed by the next run's set-up, and never one
 * of a run still going. Needs root and a tmpfs /dev/shm.
 */
import { spawn } from 'node:child_process'
import { chownSync, existsSync, lstatSync, mkdirSync, readlinkSync, rmSync, statfsSync } from 'node:fs'
import path from 'node:path'
import { memoryLayerRoot, probeMemoryLayers } from '../src/gate/memory-layers.js'

const TMPFS_MAGIC = 0x01021994
const usable = process.getuid?.() === 0 && existsSync('/dev/shm') && statfsSync('/dev/shm').type === TMPFS_MAGIC

/** A pid no process has now: one that exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true')
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid as number
}

;(usable ? describe : describe.skip)('gate layers in memory', () => {
  test('a killed run’s layers go, a live run’s, another user’s and another PID namespace’s stay; each layer folder is root-only and new', async () => {
    const dead = await deadPid()
    const live = spawn('sleep', ['30'])
    const ns = /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0] ?? '0'
    const left = `/dev/shm/loopgate-layer-${ns}-${dead}-test${Date.now()}`
    const running = `/dev/shm/loopgate-layer-${ns}-${live.pid}-test${Date.now()}`
    const foreign = `/dev/shm/loopgate-layer-${ns}-${dead}-foreign${Date.now()}`
    // A run in another PID namespace: its pid says nothing here.
    const elsewhere = `/dev/shm/loopgate-layer-1${ns}-${dead}-test${Date.now()}`
    const made = [left, running, foreign, elsewhere]
    for (const dir of made) mkdirSync(path.join(dir, 'upper'), { recursive: true })
    chownSync(foreign, 65534, 65534)
    try {
      expect(await probeMemoryLayers()).toBe('/dev/shm')
      // The sweep's rm runs in the background.
      for (let i = 0; i < 50 && existsSync(left); i++) await new Promise((r) => setTimeout(r, 100))
      expect(existsSync(left)).toBe(false)
      expect(existsSync(running)).toBe(true)
      expect(existsSync(foreign)).toBe(true)
      expect(existsSync(elsewhere)).toBe(true)
      const a = memoryLayerRoot()
      const b = memoryLayerRoot()
      made.push(...([a, b].filter(Boolean) as string[]))
      expect(a).not.toBeNull()
      expect(a).not.toBe(b)
      for (const root of [a, b] as string[]) {
        expect(path.dirname(root)).toBe('/dev/shm')
        const st = lstatSync(root)
        expect(st.isDirectory() && !st.isSymbolicLink()).toBe(true)
        expect(st.uid).toBe(0)
        expect(st.mode & 0o777).toBe(0o700)
      }
    } finally {
      live.kill()
      for (const dir of made) rmSync(dir, { recursive: true, force: true })
    }
  })
})
