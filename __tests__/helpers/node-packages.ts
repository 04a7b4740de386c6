import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './action-runner.js'

/** The folder under the repository's node_modules holding `name` as resolved from `from`. */
function resolvePackage(name: string, from: string): string | null {
  let dir = from
  for (;;) {
    const candidate = path.join(dir, 'node_modules', name)
    if (existsSync(path.join(candidate, 'package.json'))) return candidate
    if (dir === ROOT || dir === path.dirname(dir)) return null
    dir = path.dirname(dir)
  }
}

/**
 * Copies `names` and everything they depend on from loopgate's own node_modules into
 * `<project>/node_modules` (a real copy: loopgate hands the workspace to the agent user).
 */
export function installFromOwnNodeModules(project: string, names: string[]): void {
  const top = path.join(ROOT, 'node_modules')
  const seen = new Set<string>()
  const queue: [string, string][] = names.map((n) => [n, ROOT])
  while (queue.length) {
    const [name, from] = queue.shift()!
    const dir = resolvePackage(name, from)
    if (!dir || seen.has(dir)) continue
    seen.add(dir)
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
      for (const dep of Object.keys(manifest[field] ?? {})) queue.push([dep, dir])
    }
  }
  const roots = new Set<string>()
  for (const dir of seen) {
    const rel = path.relative(top, dir).split(path.sep)
    roots.add(rel[0].startsWith('@') ? `${rel[0]}/${rel[1]}` : rel[0])
  }
  for (const rel of roots) {
    const dest = path.join(project, 'node_modules', rel)
    mkdirSync(path.dirname(dest), { recursive: true })
    execFileSync('cp', ['-R', '--reflink=auto', path.join(top, rel), dest])
  }
  mkdirSync(path.join(project, 'node_modules', '.bin'), { recursive: true })
  for (const name of names) {
    const manifest = JSON.parse(readFileSync(path.join(top, name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
    const bins = typeof manifest.bin === 'string' ? { [name]: manifest.bin } : (manifest.bin ?? {})
    for (const [bin, file] of Object.entries(bins)) {
      execFileSync('ln', ['-sf', path.join('..', name, file), path.join(project, 'node_modules', '.bin', bin)])
    }
  }
}
