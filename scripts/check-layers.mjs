#!/usr/bin/env node
// Fails on an import cycle between files of src/, an import against the layer order
// (scripts/layers/table.mjs), folders of one layer importing each other, the loop importing more than
// the leaves, git run outside src/git/ (a git spawn, an import of its command-line files), and two files of src/ with one name.
// Usage: node scripts/check-layers.mjs [source-folder]   (default: src)
import path from 'node:path'
import { readGraph } from './layers/graph.mjs'
import { checkLayers } from './layers/check.mjs'
import { ALLOWED, GIT_FOLDER, GIT_INTERNALS, LAYERS, LEAVES_ONLY } from './layers/table.mjs'

const root = path.resolve(process.argv[2] ?? 'src')
const { errors, notes } = checkLayers(readGraph(root), {
  layers: LAYERS,
  gitFolder: GIT_FOLDER,
  gitInternals: GIT_INTERNALS,
  allowed: ALLOWED,
  leavesOnly: LEAVES_ONLY
})
for (const note of notes) console.log(`note: ${note}`)
for (const error of errors) console.error(`error: ${error}`)
if (errors.length > 0) {
  console.error(`check-layers: ${errors.length} problem(s) in ${path.relative(process.cwd(), root) || '.'}`)
  process.exit(1)
}
console.log(`check-layers: ${path.relative(process.cwd(), root) || '.'} keeps the layer order`)
