#!/usr/bin/env node
// Prints the folder-level import graph of src/: each folder with its layer, files and lines, the
// arrows between folders (with how many file imports each carries), cycles and upward imports.
// Usage: node scripts/structure.mjs [source-folder]   (default: src)
import path from 'node:path'
import { cycles, folderEdges, folderOf, readGraph } from './layers/graph.mjs'
import { LAYERS } from './layers/table.mjs'

const root = path.resolve(process.argv[2] ?? 'src')
const nodes = readGraph(root)
const layerOf = new Map(LAYERS.flatMap((layer, i) => layer.folders.map((folder) => [folder, i])))
const folders = new Map()
for (const node of nodes.values()) {
  const entry = folders.get(folderOf(node.file)) ?? { files: 0, lines: 0 }
  entry.files += 1
  entry.lines += node.lines
  folders.set(folderOf(node.file), entry)
}
const edges = folderEdges(nodes)
const layerName = (folder) => (layerOf.has(folder) ? LAYERS[layerOf.get(folder)].name : '(no layer)')
const byLayer = [...folders.keys()].sort((a, b) => (layerOf.get(a) ?? 99) - (layerOf.get(b) ?? 99) || a.localeCompare(b))

console.log(`${nodes.size} files, ${[...folders.values()].reduce((n, f) => n + f.lines, 0)} lines in ${folders.size} folders\n`)
console.log('folder'.padEnd(14) + 'layer'.padEnd(14) + 'files'.padStart(6) + 'lines'.padStart(8) + '  imports')
for (const folder of byLayer) {
  const { files, lines } = folders.get(folder)
  const out = [...edges]
    .filter(([key]) => key.startsWith(`${folder}\t`))
    .map(([key, count]) => `${key.split('\t')[1]}(${count})`)
    .sort()
  console.log(folder.padEnd(14) + layerName(folder).padEnd(14) + String(files).padStart(6) + String(lines).padStart(8) + '  ' + out.join(' '))
}

const folderGraph = new Map([...folders.keys()].map((f) => [f, []]))
for (const key of edges.keys()) folderGraph.get(key.split('\t')[0]).push(key.split('\t')[1])
const folderCycles = cycles(folderGraph)
const fileCycles = cycles(new Map([...nodes.values()].map((n) => [n.file, n.imports])))
const upward = [...edges].filter(([key]) => {
  const [from, to] = key.split('\t')
  return layerOf.has(from) && layerOf.has(to) && layerOf.get(to) < layerOf.get(from)
})
console.log(`\nfolder cycles: ${folderCycles.length === 0 ? 'none' : ''}`)
for (const cycle of folderCycles) console.log(`  ${cycle.join(' <-> ')}`)
console.log(`file cycles: ${fileCycles.length === 0 ? 'none' : ''}`)
for (const cycle of fileCycles) console.log(`  ${cycle.join(' <-> ')}`)
console.log(`upward imports: ${upward.length === 0 ? 'none' : ''}`)
for (const [key, count] of upward) console.log(`  ${key.replace('\t', ' -> ')} (${count})`)
