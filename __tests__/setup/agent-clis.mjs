// The real agent CLIs (the pinned claude and codex npm packages) run in the tests as an
// unprivileged user, who cannot reach them inside a clone in a private folder (a 0700 /root or a
// mktemp -d). So before any test runs, the packages are linked into a fresh root-owned 0755 tree
// under the OS temp dir, and the tests find them through LOOPGATE_TEST_CLI_BIN. Hard links cost
// nothing; a copy is the fallback across file systems.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const AGENT_CLI_PACKAGES = ['@anthropic-ai/claude-code', '@openai/codex']
export const CLI_BIN_ENV = 'LOOPGATE_TEST_CLI_BIN'

function linkTree(from, to) {
  mkdirSync(to, { recursive: true, mode: 0o755 })
  chmodSync(to, 0o755)
  for (const entry of readdirSync(from)) {
    const src = path.join(from, entry)
    const dest = path.join(to, entry)
    const st = lstatSync(src)
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dest)
    else if (st.isDirectory()) linkTree(src, dest)
    else if (st.isFile()) {
      try {
        linkSync(src, dest)
      } catch {
        copyFileSync(src, dest)
        chmodSync(dest, st.mode & 0o7777)
      }
    }
  }
}

/** The package and every dependency npm installed for it, by name (optional ones only where present). */
function closure(names, modules) {
  const seen = new Set()
  const queue = [...names]
  while (queue.length) {
    const name = queue.shift()
    if (seen.has(name) || !existsSync(path.join(modules, name, 'package.json'))) continue
    seen.add(name)
    const manifest = JSON.parse(readFileSync(path.join(modules, name, 'package.json'), 'utf8'))
    queue.push(...Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies }))
  }
  return [...seen]
}

/**
 * Whether the test users (as "others") can reach a folder: every directory from it up to / must
 * be searchable by others. Only root switches to test users; anyone else runs the CLIs as themselves.
 */
export function othersCanReach(dir) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false
    if (d === path.dirname(d)) return true
  }
}

export function needsLinkedClis(modules = path.join(ROOT, 'node_modules')) {
  return process.getuid?.() === 0 && !othersCanReach(modules)
}

/** Builds the tree and returns its root; `<root>/node_modules/.bin` holds the CLIs. */
export function linkAgentClis(modules = path.join(ROOT, 'node_modules'), tmp = os.tmpdir()) {
  const root = mkdtempSync(path.join(tmp, 'loopgate-test-clis-'))
  chmodSync(root, 0o755)
  const targetModules = path.join(root, 'node_modules')
  const bin = path.join(targetModules, '.bin')
  mkdirSync(bin, { recursive: true, mode: 0o755 })
  chmodSync(targetModules, 0o755)
  chmodSync(bin, 0o755)
  for (const name of closure(AGENT_CLI_PACKAGES, modules)) {
    linkTree(path.join(modules, name), path.join(targetModules, name))
    if (name.includes('/')) chmodSync(path.join(targetModules, name.split('/')[0]), 0o755)
  }
  for (const name of AGENT_CLI_PACKAGES) {
    const manifest = JSON.parse(readFileSync(path.join(targetModules, name, 'package.json'), 'utf8'))
    const bins = typeof manifest.bin === 'string' ? { [name.split('/').pop()]: manifest.bin } : (manifest.bin ?? {})
    for (const [cmd, rel] of Object.entries(bins)) symlinkSync(path.relative(bin, path.join(targetModules, name, rel)), path.join(bin, cmd))
  }
  return root
}

export function removeAgentClis(root) {
  if (root && path.basename(root).startsWith('loopgate-test-clis-')) rmSync(root, { recursive: true, force: true })
}
