/**
 * Whether the gate's runs get a write layer is probed once per process, without blocking it: the
 * probe is begun with the gate's set-up, and the gate made later reads its answer.
 */
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { overlayUnavailable, probeOverlay } from '../src/gate/mount-namespace.js'
import { tempDir } from './helpers/repo.js'

const root = process.getuid?.() === 0

;(root ? describe : describe.skip)('the overlay probe, as root', () => {
  test('answers as the blocking probe does, leaves nothing behind, and is asked once', async () => {
    const dir = tempDir()
    const scratch = path.join(dir, 'layers')
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const probing = probeOverlay(scratch)
    // The same probe for every caller while it runs.
    expect(probeOverlay(scratch)).toBe(probing)
    expect(await probing).toBeNull()
    clearInterval(timer)
    // The process went on while the probe ran.
    expect(ticks).toBeGreaterThan(0)
    expect(readdirSync(scratch)).toEqual([])
    // Later questions are answered from the probe: nothing is made in another folder.
    const elsewhere = path.join(dir, 'elsewhere')
    expect(overlayUnavailable(elsewhere)).toBeNull()
    expect(existsSync(elsewhere)).toBe(false)
  })
})
