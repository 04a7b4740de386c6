import { readlinkSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { manifestChange, protectedPart, restoreManifest } from '../dependencies/manifest-keys.js'
import { readTreeEntry, removeTreeEntry, writeTreeFile, type TreeEntry } from '../../fs/tree.js'
import type { BaseSnapshot, SnapshotEntry } from './snapshot.js'

export interface Tampering {
  path: string
  /** modified, added, deleted, mode changed, replaced by a symlink, … */
  change: string
}

function describeEntry(entry: TreeEntry): string {
  switch (entry.kind) {
    case 'symlink':
      return 'replaced by a symlink'
    case 'dir':
      return 'replaced by a directory'
    case 'bad-ancestor':
      return `reached through ${entry.ancestor}, which is no longer a directory`
    case 'other':
      return 'replaced by a special file'
    case 'too-large':
      return `grown to ${entry.size} bytes`
    default:
      return 'changed'
  }
}

function checkBaseEntry(root: string, base: SnapshotEntry): string | null {
  const entry = readTreeEntry(root, base.path)
  if (base.mode === '120000') {
    if (entry.kind !== 'symlink') return entry.kind === 'missing' ? 'deleted' : 'changed'
    try {
      return readlinkSync(path.join(root, base.path)) === base.data.toString('utf8') ? null : 'symlink retargeted'
    } catch {
      return 'changed'
    }
  }
  if (entry.kind === 'missing') return base.kind === 'file' || base.projection !== protectedPart(base.kind, null) ? 'deleted' : null
  if (entry.kind !== 'file') return describeEntry(entry)
  if (base.kind !== 'file') return manifestChange(base.kind, base.projection ?? '', entry.data.toString('utf8'))
  if (!entry.data.equals(base.data)) return 'modified'
  if (entry.executable !== (base.mode === '100755')) return 'mode changed'
  return null
}

/**
 * Every difference between the protected paths under `root` and the base snapshot. `candidates`
 * are the paths present in the tree (tracked or untracked); base paths are always checked.
 */
export function findTampering(root: string, snapshot: BaseSnapshot, candidates: Iterable<string>): Tampering[] {
  const found: Tampering[] = []
  const seen = new Set<string>()
  for (const base of snapshot.entries.values()) {
    seen.add(base.path)
    const change = checkBaseEntry(root, base)
    if (change) found.push({ path: base.path, change })
  }
  for (const file of candidates) {
    if (seen.has(file)) continue
    seen.add(file)
    const kind = snapshot.paths.kind(file)
    if (!kind) continue
    const entry = readTreeEntry(root, file)
    if (entry.kind === 'missing') {
      // git gave a name that is not valid UTF-8 with U+FFFD in it: the file is there, under its real bytes.
      if (file.includes('\ufffd')) found.push({ path: file, change: 'added (a name that is not valid UTF-8)' })
      continue
    }
    if (kind !== 'file' && entry.kind === 'file') {
      const change = manifestChange(kind, protectedPart(kind, null), entry.data.toString('utf8'))
      if (change) found.push({ path: file, change: `added, ${change}` })
      continue
    }
    found.push({ path: file, change: entry.kind === 'file' ? 'added' : `added (${describeEntry(entry)})` })
  }
  return found.sort((a, b) => a.path.localeCompare(b.path))
}

/** Puts the base content back for each tampering; added protected files are removed. */
export function revertTampering(root: string, snapshot: BaseSnapshot, found: Tampering[]): void {
  for (const t of found) {
    const base = snapshot.entries.get(t.path)
    const kind = snapshot.paths.kind(t.path)
    if (!base) {
      const entry = readTreeEntry(root, t.path)
      if (kind && kind !== 'file' && entry.kind === 'file') {
        const restored = restoreManifest(kind, entry.data.toString('utf8'), null)
        if (restored !== null) writeTreeFile({ root, rel: t.path, data: restored })
        else removeTreeEntry(root, t.path)
      } else removeTreeEntry(root, t.path)
      continue
    }
    if (base.mode === '120000') {
      writeTreeFile({ root, rel: t.path, data: '' })
      removeTreeEntry(root, t.path)
      symlinkSync(base.data.toString('utf8'), path.join(root, t.path))
      continue
    }
    if (base.kind !== 'file') {
      const entry = readTreeEntry(root, t.path)
      const restored = entry.kind === 'file' ? restoreManifest(base.kind, entry.data.toString('utf8'), base.data.toString('utf8')) : null
      writeTreeFile({ root, rel: t.path, data: restored ?? base.data, executable: base.mode === '100755' })
      continue
    }
    writeTreeFile({ root, rel: t.path, data: base.data, executable: base.mode === '100755' })
  }
}

export function describeTampering(found: Tampering[], max = 20): string {
  const shown = found.slice(0, max).map((t) => `${t.path} (${t.change})`)
  if (found.length > max) shown.push(`… and ${found.length - max} more`)
  return shown.join(', ')
}
