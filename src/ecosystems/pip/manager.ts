import { createHash } from 'node:crypto'
import { readTreeEntry, writeTreeFile } from '../../fs/tree.js'
import { indexVersions, runPip, type Lookup } from './index-lookup.js'
export { availableVersions } from './index-lookup.js'
import { comparePep440, isPrerelease, parsePep440, PEP440 } from './pep440.js'
import { parsePins, rewritePin, uniquePins } from './requirements.js'
import type { BumpResult, CandidateInWorkspace, OutdatedDependency, OutdatedReport, PackageManager } from '../types.js'
import { mapLimited } from '../limited-map.js'

export const REQUIREMENTS = 'requirements.txt'
const MAX_REQUIREMENTS_BYTES = 4 * 1024 * 1024
/** Lookups at once: each is a Python process and an index request. */
const LOOKUP_CONCURRENCY = 4
const JSON_TIMEOUT_MS = 15_000
const MAX_JSON_BYTES = 8 * 1024 * 1024
const DEFAULT_INDEX = 'https://pypi.org/simple'
/** `project_urls` labels that name where a version's changes are described (compared lowercased, letters only). */
const NOTES_LABELS = new Set(['changelog', 'changes', 'releasenotes', 'history', 'releases', 'whatsnew', 'news'])

/** The requirements file's bytes as text, one character per byte, so a rewrite keeps every other byte. */
function readRequirements(workspace: string): { text: string; executable: boolean } | null {
  const entry = readTreeEntry(workspace, REQUIREMENTS, MAX_REQUIREMENTS_BYTES)
  return entry.kind === 'file' ? { text: entry.data.toString('latin1'), executable: entry.executable } : null
}

/** PyPI's JSON API for one version, next to a `…/simple` index; null for an index of another shape. */
export function jsonApiUrl(indexUrl: string, name: string, version: string): URL | null {
  let url: URL
  try {
    url = new URL(indexUrl)
  } catch {
    return null
  }
  if (!/^https?:$/.test(url.protocol) || !/\/simple\/?$/.test(url.pathname)) return null
  url.pathname = url.pathname.replace(/\/simple\/?$/, `/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`)
  url.search = ''
  url.hash = ''
  return url
}

/** The `project_urls` entries that say where a version's changes are described. */
function releaseNoteLinks(meta: unknown): string[] {
  const info = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>).info : undefined
  const urls = typeof info === 'object' && info !== null ? (info as Record<string, unknown>).project_urls : undefined
  if (typeof urls !== 'object' || urls === null) return []
  const lines: string[] = []
  for (const [label, url] of Object.entries(urls as Record<string, unknown>)) {
    if (!NOTES_LABELS.has(label.toLowerCase().replace(/[^a-z]/g, ''))) continue
    if (typeof url !== 'string' || url.length > 500 || !/^https?:\/\/\S+$/.test(url) || label.length > 60) continue
    lines.push(`${label.replace(/[^\w ./'-]/g, '')}: ${url}`)
  }
  return lines.slice(0, 5)
}

/**
 * Python projects whose dependencies are exact pins in requirements.txt (`name==1.2.3`). pip lists
 * the versions (`pip index versions`, with the runner's index configuration); the bump rewrites
 * the pin, the rest of the file byte for byte. The pins are the lock.
 */
export class PipPackageManager implements PackageManager {
  readonly name = 'pip'
  readonly bumpFiles = [REQUIREMENTS]
  readonly versions = PEP440

  detect(workspace: string): boolean {
    const file = readRequirements(workspace)
    return file !== null && parsePins(file.text).length > 0
  }

  lockfileHash(workspace: string): string {
    const entry = readTreeEntry(workspace, REQUIREMENTS, MAX_REQUIREMENTS_BYTES)
    return entry.kind === 'file' ? `${REQUIREMENTS}:${createHash('sha256').update(entry.data).digest('hex').slice(0, 32)}` : 'none'
  }

  async outdated(workspace: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<OutdatedReport> {
    const file = readRequirements(workspace)
    if (!file) throw new Error(`${REQUIREMENTS} is not a regular file`)
    const { pins, repeated } = uniquePins(parsePins(file.text))
    const notes = repeated.map((name) => `not upgraded: ${name}: pinned more than once in ${REQUIREMENTS}`)
    const lookups = await mapLimited(pins, LOOKUP_CONCURRENCY, (pin) =>
      indexVersions({ name: pin.name, pre: isPrerelease(parsePep440(pin.version)!), env, signal })
    )
    const failed = lookups.filter((l): l is Extract<Lookup, { kind: 'failed' }> => l.kind === 'failed')
    // pip or the index unusable for every lookup is a failure of the run, not a quiet "nothing to do".
    if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0].message)
    const dependencies: OutdatedDependency[] = []
    pins.forEach((pin, i) => {
      const lookup = lookups[i]
      if (lookup.kind === 'unknown') return void notes.push(`not upgraded: ${pin.name}: the package index does not know it`)
      if (lookup.kind === 'failed') return void notes.push(`not upgraded: ${lookup.message}`)
      const current = parsePep440(pin.version)!
      const newest = lookup.versions
        .map((text) => ({ text, version: parsePep440(text) }))
        .filter((v): v is { text: string; version: NonNullable<typeof v.version> } => v.version !== null)
        .filter((v) => isPrerelease(current) || !isPrerelease(v.version))
        .sort((a, b) => comparePep440(b.version, a.version))[0]
      if (newest && comparePep440(newest.version, current) > 0) {
        dependencies.push({ name: pin.name, current: pin.version, wanted: newest.text, latest: newest.text, type: 'dependencies' })
      }
    })
    return { dependencies, notes }
  }

  async bump({ workspace, candidate }: Pick<CandidateInWorkspace, 'workspace' | 'candidate'>): Promise<BumpResult> {
    const file = readRequirements(workspace)
    if (!file) return { ok: false, message: `${REQUIREMENTS} is not a regular file; it is not rewritten` }
    const rewritten = rewritePin({ text: file.text, name: candidate.name, from: candidate.from, to: candidate.to })
    if (rewritten === null) return { ok: false, message: `${REQUIREMENTS} holds no single pin ${candidate.name}==${candidate.from}` }
    writeTreeFile({ root: workspace, rel: REQUIREMENTS, data: Buffer.from(rewritten, 'latin1'), executable: file.executable })
    return { ok: true }
  }

  installedCopy(): null {
    return null
  }

  releaseNotes({ candidate, env, signal }: CandidateInWorkspace): Promise<string[]> {
    return indexReleaseNotes({ candidate, env, signal })
  }
}

/** The release-note links of the target version from the JSON API next to the index pip uses. */
export async function indexReleaseNotes({ candidate, env, signal }: Pick<CandidateInWorkspace, 'candidate' | 'env' | 'signal'>): Promise<string[]> {
  const url = jsonApiUrl(await pipIndexUrl(env, signal), candidate.name, candidate.to)
  if (!url) return []
  const headers: Record<string, string> = { accept: 'application/json' }
  // fetch refuses credentials in a URL: they go in the header, to the index's own host only.
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    url.username = ''
    url.password = ''
  }
  try {
    const timeout = AbortSignal.timeout(JSON_TIMEOUT_MS)
    const response = await fetch(url, { headers, redirect: 'follow', signal: signal ? AbortSignal.any([signal, timeout]) : timeout })
    const length = Number(response.headers.get('content-length') ?? 0)
    if (!response.ok || length > MAX_JSON_BYTES) return []
    const body = await response.text()
    return body.length > MAX_JSON_BYTES ? [] : releaseNoteLinks(JSON.parse(body))
  } catch {
    return []
  }
}

/** The index pip uses: PIP_INDEX_URL, else pip's configuration (pip.conf, PIP_CONFIG_FILE), else PyPI. */
async function pipIndexUrl(env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<string> {
  if (env.PIP_INDEX_URL) return env.PIP_INDEX_URL
  const r = await runPip({ args: ['config', 'list'], env, signal })
  const configured = [...r.stdout.matchAll(/^[^\n=]*\.index-url='([^'\n]+)'$/gm)].map((m) => m[1])
  return configured.at(-1) ?? DEFAULT_INDEX
}
