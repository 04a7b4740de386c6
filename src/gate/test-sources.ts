import path from 'node:path'
import type { GitRepository } from '../git/repository.js'
import { listTree, readBlobs } from './baseline/snapshot.js'
import type { FailureItem } from '../loop/engine-types.js'

/**
 * The files a failing test depends on, by path: its test file (named by its id: a path, or
 * pytest's dotted module) and the project files that file imports, and theirs in turn. The
 * flaky rule reruns only tests the change does not touch this way.
 */

const MAX_FILES = 400
const MAX_BYTES = 512 * 1024
const JS_SOURCE = /\.(?:[cm]?[jt]sx?)$/
const JS_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.tsx', '.jsx', '/index.js', '/index.ts', '/index.mjs']
const JS_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\bexport\s[^'"]*?from\s*)['"](\.{1,2}\/[^'"\n]+)['"]/g
const PY_IMPORT = /^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([\w, \t()]+)|import[ \t]+([\w., \t]+))/gm

type Tree = ReadonlyMap<string, { mode: string; oid: string }>

/** The test file an id names: a path of the tree in it, else the longest dotted module prefix that is a `.py` file. */
export function testFileOf(id: string, has: (file: string) => boolean): string | null {
  for (const token of id.split(/\s+›\s+|::|\s+|[()[\]]/)) {
    const clean = token.replace(/^\.\//, '').replace(/:\d+(?::\d+)?$/, '')
    if (clean && has(clean)) return clean
  }
  const dotted = /^([\w.]+)/.exec(id)?.[1]
  if (!dotted) return null
  const parts = dotted.split('.')
  for (let n = parts.length; n > 0; n--) {
    const file = `${parts.slice(0, n).join('/')}.py`
    if (has(file)) return file
  }
  return null
}

function jsImports(file: string, text: string, has: (f: string) => boolean): string[] {
  const out: string[] = []
  for (const m of text.matchAll(JS_IMPORT)) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]))
    const found = JS_EXTENSIONS.map((ext) => base + ext).find(has)
    if (found) out.push(found)
  }
  return out
}

/** Where a Python module may live in the tree: beside the importer, at the root, under `src/`. */
function pyImports(file: string, text: string, has: (f: string) => boolean): string[] {
  const out: string[] = []
  const dir = path.posix.dirname(file)
  const resolve = (module: string): void => {
    const dots = /^\.*/.exec(module)?.[0].length ?? 0
    let roots = ['', 'src/', dir === '.' ? '' : `${dir}/`]
    if (dots > 0) {
      let up = dir
      for (let i = 1; i < dots; i++) up = path.posix.dirname(up)
      roots = [up === '.' ? '' : `${up}/`]
    }
    const rel = module.slice(dots).replace(/\./g, '/')
    for (const root of roots) {
      const parts = rel ? rel.split('/') : []
      // The package's `__init__.py` on the way down, and the module itself.
      for (let n = 1; n <= parts.length; n++) {
        const stem = root + parts.slice(0, n).join('/')
        for (const f of [`${stem}.py`, `${stem}/__init__.py`]) if (has(f)) out.push(f)
      }
    }
  }
  for (const m of text.matchAll(PY_IMPORT)) {
    if (m[1] !== undefined) {
      resolve(m[1])
      // `from pkg import module` names a module as often as a name.
      for (const name of m[2].replace(/[()]/g, '').split(',')) {
        const n = name.trim().split(/\s+/)[0]
        if (/^\w+$/.test(n)) resolve(m[1].endsWith('.') ? `${m[1]}${n}` : `${m[1]}.${n}`)
      }
    } else for (const name of m[3].split(',')) resolve(name.trim().split(/\s+/)[0])
  }
  return out
}

/** Reads the files reached from `start` through their imports, breadth first, up to MAX_FILES. */
async function closure(repository: GitRepository, tree: Tree, start: string[]): Promise<Set<string>> {
  const has = (f: string): boolean => tree.get(f)?.mode?.startsWith('100') ?? false
  const seen = new Set(start)
  let frontier = start
  while (frontier.length && seen.size < MAX_FILES) {
    const readable = frontier.filter((f) => JS_SOURCE.test(f) || f.endsWith('.py'))
    const blobs = await readBlobs(repository, [...new Set(readable.map((f) => tree.get(f)!.oid))])
    const next: string[] = []
    for (const file of readable) {
      const text = blobs.get(tree.get(file)!.oid)?.subarray(0, MAX_BYTES).toString('utf8') ?? ''
      for (const dep of file.endsWith('.py') ? pyImports(file, text, has) : jsImports(file, text, has))
        if (!seen.has(dep) && seen.size < MAX_FILES) {
          seen.add(dep)
          next.push(dep)
        }
    }
    frontier = next
  }
  return seen
}

/** Files of the tree a failure's location lines name (`at test/a.test.mjs:12`), the gate's own reading of its frames. */
function locatedFiles(message: string, has: (file: string) => boolean): string[] {
  const out: string[] = []
  for (const m of message.matchAll(/(?:^|\n)at ([^\s:]+):\d+/g)) if (has(m[1]) && !out.includes(m[1])) out.push(m[1])
  return out
}

/**
 * Per failing test, the files it depends on at `commit`: its test file (named by its id, else the
 * files its failure's location lines name) and what those import. A test none of whose files is
 * found is left out.
 */
export async function testSources(repository: GitRepository, commit: string, failures: readonly FailureItem[]): Promise<Map<string, string[]>> {
  const tree = await listTree(repository, commit)
  const has = (f: string): boolean => tree.get(f)?.mode?.startsWith('100') ?? false
  const out = new Map<string, string[]>()
  for (const { id, message } of failures) {
    const named = testFileOf(id, has)
    const start = named ? [named] : locatedFiles(message, has)
    if (start.length === 0) continue
    out.set(id, [...new Set([...(out.get(id) ?? []), ...(await closure(repository, tree, start))])])
  }
  return out
}
