import { lstatSync, type Stats } from 'node:fs'
import path from 'node:path'

/**
 * Visits the components of each path (given as its parts) under `root`, outermost first, each
 * once over all the paths, by lstat (a link is seen as itself, never followed). A component that
 * does not exist ends its path; so does `visit` returning 'stop'.
 */
export function walkComponents(root: string, paths: Iterable<string[]>, visit: (current: string, st: Stats, last: boolean) => 'stop' | void): void {
  const seen = new Set<string>()
  for (const parts of paths) {
    let current = root
    for (let i = 0; i < parts.length; i++) {
      current = path.join(current, parts[i])
      if (seen.has(current)) continue
      seen.add(current)
      let st: Stats
      try {
        st = lstatSync(current)
      } catch {
        break
      }
      if (visit(current, st, i === parts.length - 1) === 'stop') break
    }
  }
}
