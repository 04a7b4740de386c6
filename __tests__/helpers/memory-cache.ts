import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { CacheClient } from '../../src/state/store.js'

/** The cache service as a map: what one run saves, the next restores. */
export function memoryCache(): CacheClient {
  let saved: { key: string; text: string } | null = null
  return {
    isFeatureAvailable: () => true,
    async restoreCache(paths) {
      if (!saved) return undefined
      mkdirSync(paths[0], { recursive: true })
      writeFileSync(path.join(paths[0], 'state.json'), saved.text)
      return saved.key
    },
    async saveCache(paths, key) {
      saved = { key, text: readFileSync(path.join(paths[0], 'state.json'), 'utf8') }
      return 1
    }
  }
}
