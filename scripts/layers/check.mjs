// The rules of the layer order, checked on a graph from graph.mjs. Returns errors and notes as text.
import { cycles, folderEdges, folderOf, pathBetween } from './graph.mjs'

function layerIndex(layers) {
  const index = new Map()
  layers.forEach((layer, i) => layer.folders.forEach((folder) => index.set(folder, i)))
  return index
}

function fileCycleErrors(nodes) {
  const edges = new Map([...nodes.values()].map((n) => [n.file, n.imports]))
  return cycles(edges).map((component) => {
    const trail = pathBetween(edges, component[0], component[0], new Set(component)) ?? component
    return `import cycle: ${trail.join(' -> ')}`
  })
}

function layerErrors(nodes, { layers, allowed, leavesOnly }) {
  const index = layerIndex(layers)
  const bottom = layers.length - 1
  const errors = []
  const notes = []
  for (const node of nodes.values()) {
    const from = folderOf(node.file)
    if (!index.has(from)) errors.push(`${node.file}: folder "${from}" has no layer in scripts/layers/table.mjs`)
    for (const target of node.imports) {
      const to = folderOf(target)
      if (leavesOnly.includes(from) && to !== from && index.get(to) !== bottom) errors.push(`${node.file} imports ${target}: ${from}/ imports only leaves`)
      if (!index.has(from) || !index.has(to) || index.get(to) >= index.get(from)) continue
      const message = `upward import: ${node.file} (${layers[index.get(from)].name}) -> ${target} (${layers[index.get(to)].name})`
      if (allowed.upward.includes(`${from} -> ${to}`)) notes.push(`allowed ${message}`)
      else errors.push(message)
    }
  }
  return { errors, notes }
}

function folderCycleErrors(nodes, layers, allowed) {
  const index = layerIndex(layers)
  const counts = folderEdges(nodes)
  const errors = []
  const notes = []
  for (const key of counts.keys()) {
    const [a, b] = key.split('\t')
    if (a >= b || !counts.has(`${b}\t${a}`) || index.get(a) !== index.get(b)) continue
    const message = `folders import each other: ${a} <-> ${b}`
    if (allowed.folderCycles.includes(`${a} <-> ${b}`)) notes.push(`allowed ${message}`)
    else errors.push(message)
  }
  return { errors, notes }
}

function gitSpawnErrors(nodes, gitFolder, allowed) {
  const errors = []
  const notes = []
  for (const node of nodes.values()) {
    if (!node.spawnsGit || folderOf(node.file) === gitFolder) continue
    const message = `${node.file} runs git outside ${gitFolder}/`
    if (allowed.gitSpawn.some((prefix) => node.file.startsWith(prefix))) notes.push(`allowed (warning): ${message}`)
    else errors.push(message)
  }
  return { errors, notes }
}

function gitInternalErrors(nodes, gitFolder, internals) {
  const errors = []
  for (const node of nodes.values()) {
    if (folderOf(node.file) === gitFolder) continue
    for (const target of node.imports) {
      if (internals.includes(target)) errors.push(`${node.file} imports ${target}: outside ${gitFolder}/, git runs through a GitRepository or GateRepository`)
    }
  }
  return { errors, notes: [] }
}

function nameErrors(nodes, allowed) {
  const byName = new Map()
  for (const file of nodes.keys()) {
    if (allowed.sameNames.some((prefix) => file.startsWith(prefix))) continue
    const plugin = (allowed.pluginFolders ?? []).find((prefix) => file.startsWith(prefix) && file.slice(prefix.length).includes('/'))
    // One folder per registry entry: its files are named for their entry (ecosystems/npm/index.ts is "npm/index.ts").
    const name = plugin ? file.slice(plugin.length) : file.slice(file.lastIndexOf('/') + 1)
    byName.set(name, [...(byName.get(name) ?? []), file])
  }
  const errors = [...byName].filter(([, files]) => files.length > 1).map(([name, files]) => `one name, two files: ${name} (${files.join(', ')})`)
  return { errors, notes: [] }
}

/** Every broken rule as an error, every allowed exception as a note. */
export function checkLayers(nodes, { layers, gitFolder, gitInternals = [], allowed, leavesOnly = [] }) {
  const parts = [
    layerErrors(nodes, { layers, allowed, leavesOnly }),
    folderCycleErrors(nodes, layers, allowed),
    gitSpawnErrors(nodes, gitFolder, allowed),
    gitInternalErrors(nodes, gitFolder, gitInternals),
    nameErrors(nodes, allowed)
  ]
  return {
    errors: [...fileCycleErrors(nodes), ...parts.flatMap((p) => p.errors)],
    notes: parts.flatMap((p) => p.notes)
  }
}
