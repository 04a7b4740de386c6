// `npm run bench`: every benchmark in one run, one table. Each bench module exports an async
// function whose name starts with `bench` and returns its figures.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { printTable, removeDeferred, type Figure } from './lib.js'

const here = path.dirname(fileURLToPath(import.meta.url))
const MODULES = [
  'loop.ts',
  'startup.ts',
  'startup-disk.ts',
  'gate-overhead.ts',
  'gate-setup.ts',
  'gate-ratio.ts',
  'publishable-tree.ts',
  'fingerprint.ts',
  'state.ts',
  'scenarios.ts',
  'meter.ts',
  'ecosystems.ts'
]

const figures: Figure[] = []
for (const name of MODULES) {
  const file = path.join(here, name)
  if (!existsSync(file)) continue
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  for (const [key, fn] of Object.entries(mod)) {
    if (!key.startsWith('bench') || typeof fn !== 'function') continue
    process.stderr.write(`running ${name} ${key}…\n`)
    try {
      figures.push(...((await (fn as () => Promise<Figure[]>)()) ?? []))
    } catch (err) {
      figures.push({ name: `${name} ${key}`, value: `failed: ${(err as Error).message.slice(0, 60)}`, ok: false })
    }
  }
}
printTable(figures)
removeDeferred()
