// The import graph of a source tree, read with the TypeScript compiler's pre-processor (no type check).
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/** Every .ts file under root (relative, with forward slashes). */
export function listFiles(root) {
  const out = []
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path.relative(root, full).split(path.sep).join('/'))
    }
  }
  walk(root)
  return out.sort()
}

function resolve(root, from, spec, known) {
  if (!spec.startsWith('.')) return null
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec))
  for (const candidate of [joined.replace(/\.js$/, '.ts'), `${joined}.ts`, `${joined}/index.ts`]) if (known.has(candidate)) return candidate
  return null
}

/** Files with their line counts, their imports inside root, and whether they spawn git. */
export function readGraph(root) {
  const files = listFiles(root)
  const known = new Set(files)
  const nodes = new Map()
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), 'utf8')
    const info = ts.preProcessFile(text, true, true)
    const imports = [...new Set(info.importedFiles.map((i) => resolve(root, file, i.fileName, known)).filter((f) => f !== null))]
    nodes.set(file, { file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports, spawnsGit: spawnsGit(text) })
  }
  return nodes
}

/** A call that runs the git binary: spawn('git', …), execFile('git', …), runProcess('git', …) and the like. */
function spawnsGit(text) {
  return /\b[\w$]+\(\s*['"`]git['"`]\s*,/.test(text)
}

/** The folder a file belongs to: its first path segment, or the file's own name for a file at the root. */
export function folderOf(file) {
  const slash = file.indexOf('/')
  return slash === -1 ? file.replace(/\.ts$/, '') : file.slice(0, slash)
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
export function cycles(edges) {
  let index = 0
  const stack = []
  const state = new Map()
  const found = []
  const visit = (v) => {
    const s = { index, low: index, onStack: true }
    index += 1
    state.set(v, s)
    stack.push(v)
    for (const w of edges.get(v) ?? []) {
      const t = state.get(w)
      if (!t) {
        visit(w)
        s.low = Math.min(s.low, state.get(w).low)
      } else if (t.onStack) s.low = Math.min(s.low, t.index)
    }
    if (s.low === s.index) {
      const component = []
      let w
      do {
        w = stack.pop()
        state.get(w).onStack = false
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!state.has(v)) visit(v)
  return found.sort((a, b) => a[0].localeCompare(b[0]))
}

/** One shortest path of imports from a to b inside a component, for a readable message. */
export function pathBetween(edges, a, b, within) {
  const previous = new Map([[a, null]])
  const queue = [a]
  while (queue.length > 0) {
    const v = queue.shift()
    for (const w of edges.get(v) ?? []) {
      if (!within.has(w)) continue
      if (w === b) {
        const trail = [b]
        for (let x = v; x !== null; x = previous.get(x)) trail.unshift(x)
        return trail
      }
      if (previous.has(w)) continue
      previous.set(w, v)
      queue.push(w)
    }
  }
  return null
}

/** Folder-level edges with the number of file imports behind each. */
export function folderEdges(nodes) {
  const counts = new Map()
  for (const node of nodes.values()) {
    for (const target of node.imports) {
      const from = folderOf(node.file)
      const to = folderOf(target)
      if (from === to) continue
      const key = `${from}\t${to}`
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
  }
  return counts
}
