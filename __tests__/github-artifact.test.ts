import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { jest } from '@jest/globals'
import { artifactName, uploadAttemptLog } from '../src/github/artifact.js'
import { LocalCacheService } from './cache-server/server.js'
import { runtimeToken } from './cache-server/runtime-token.js'

/** The entries of a zip, read from its central directory (names and inflated contents). */
function unzipEntries(zip: Buffer): Map<string, string> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  if (eocd < 0) throw new Error('not a zip: no end of central directory record')
  const count = zip.readUInt16LE(eocd + 10)
  let at = zip.readUInt32LE(eocd + 16)
  const entries = new Map<string, string>()
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry at ${at}`)
    const method = zip.readUInt16LE(at + 10)
    const compressed = zip.readUInt32LE(at + 20)
    const nameLen = zip.readUInt16LE(at + 28)
    const extraLen = zip.readUInt16LE(at + 30)
    const commentLen = zip.readUInt16LE(at + 32)
    const local = zip.readUInt32LE(at + 42)
    const name = zip.subarray(at + 46, at + 46 + nameLen).toString()
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
    const data = zip.subarray(dataAt, dataAt + compressed)
    entries.set(name, (method === 8 ? inflateRawSync(data) : data).toString())
    at += 46 + nameLen + extraLen + commentLen
  }
  return entries
}

describe('uploadAttemptLog against a local Actions results service', () => {
  const ids = runtimeToken()
  let svc: LocalCacheService
  let work: string
  const saved: Record<string, string | undefined> = {}
  // @actions/artifact reads these from process.env, not from the env uploadAttemptLog is given.
  const LIBRARY_ENV = ['ACTIONS_RESULTS_URL', 'ACTIONS_RUNTIME_TOKEN', 'GITHUB_SERVER_URL', 'GITHUB_RETENTION_DAYS']

  beforeAll(async () => {
    svc = new LocalCacheService({ token: ids.token })
    await svc.start()
  })
  afterAll(async () => {
    await svc?.stop()
  })
  beforeEach(() => {
    work = mkdtempSync(path.join(os.tmpdir(), 'loopgate-artifact-test-'))
    for (const k of LIBRARY_ENV) saved[k] = process.env[k]
  })
  afterEach(() => {
    for (const k of LIBRARY_ENV) {
      if (saved[k] === undefined) delete process.env[k]
      else process.env[k] = saved[k]
    }
    jest.restoreAllMocks()
    rmSync(work, { recursive: true, force: true })
  })

  const runEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    ...svc.env(),
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'octo-org/octo-repo',
    GITHUB_RUN_ID: '4242',
    GITHUB_RUN_ATTEMPT: '1',
    ...extra
  })

  /** Points @actions/artifact (which reads process.env) at the same service as `env`. */
  const useLibraryEnv = (env: NodeJS.ProcessEnv): void => {
    for (const k of LIBRARY_ENV) {
      if (env[k] === undefined) delete process.env[k]
      else process.env[k] = env[k]
    }
  }

  it('uploads both files as a zip artifact named after the loop and returns its run artifact URL', async () => {
    const dir = path.join(work, 'run')
    mkdirSync(dir)
    // As the publisher hands them over: the run's log and its copy of the progress file.
    const log = { file: path.join(dir, 'log.jsonl'), name: 'attempts.jsonl' }
    const progress = { file: path.join(dir, 'progress.md'), name: 'progress.md' }
    const attempts = '{"attempt":1,"verdict":"fail"}\n{"attempt":2,"verdict":"pass"}\n'
    const notes = '# progress\n- attempt 1: gate failed\n- attempt 2: verified\n'
    writeFileSync(log.file, attempts)
    writeFileSync(progress.file, notes)

    const env = runEnv()
    useLibraryEnv(env)
    const stdout: string[] = []
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout.push(chunk.toString())
      return true
    })
    const warnings: string[] = []

    const url = await uploadAttemptLog({ loopId: 'nightly-upgrade', files: [log, progress], tempDir: work, env, warn: (m) => warnings.push(m) })
    jest.restoreAllMocks()

    expect(warnings).toEqual([])
    expect(stdout.join('')).not.toContain('::warning::')
    expect(artifactName('nightly-upgrade', env)).toBe('loopgate-nightly-upgrade')
    const created = svc.artifacts.filter((a) => a.name === 'loopgate-nightly-upgrade')
    expect(created).toHaveLength(1)
    const artifact = created[0]
    expect(artifact).toMatchObject({
      finalized: true,
      workflowRunBackendId: ids.workflowRunBackendId,
      workflowJobRunBackendId: ids.workflowJobRunBackendId,
      mimeType: 'application/zip'
    })
    expect(artifact.expiresAt).toBeDefined()
    const days = (Date.parse(artifact.expiresAt!) - Date.now()) / 86_400_000
    expect(days).toBeGreaterThan(29)
    expect(days).toBeLessThanOrEqual(30.1)
    expect(url).toBe(`https://github.com/octo-org/octo-repo/actions/runs/4242/artifacts/${artifact.id}`)
    expect(svc.requests.map((r) => r.method)).toEqual(['ArtifactService/CreateArtifact', 'ArtifactService/FinalizeArtifact'])

    const zip = await svc.downloadArtifact(artifact)
    expect(zip.length).toBe(artifact.sizeBytes)
    expect(zip.length).toBeGreaterThan(0)
    const entries = unzipEntries(zip)
    expect([...entries.keys()].sort()).toEqual(['attempts.jsonl', 'progress.md'])
    expect(entries.get('attempts.jsonl')).toBe(attempts)
    expect(entries.get('progress.md')).toBe(notes)
  })

  it('names a re-run attempt after its attempt number', async () => {
    const dir = path.join(work, 'run')
    mkdirSync(dir)
    const log = { file: path.join(dir, 'log.jsonl'), name: 'attempts.jsonl' }
    writeFileSync(log.file, '{"attempt":1}\n')
    // A progress file that does not exist is left out, not an error.
    const missing = { file: path.join(dir, 'no-progress.md'), name: 'progress.md' }
    const env = runEnv({ GITHUB_RUN_ATTEMPT: '2' })
    useLibraryEnv(env)
    jest.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const warnings: string[] = []
    const url = await uploadAttemptLog({ loopId: 'nightly-upgrade', files: [log, missing], tempDir: work, env, warn: (m) => warnings.push(m) })
    jest.restoreAllMocks()

    expect(warnings).toEqual([])
    const artifact = svc.artifacts.find((a) => a.name === 'loopgate-nightly-upgrade-attempt-2')
    expect(artifact?.finalized).toBe(true)
    expect(url).toBe(`https://github.com/octo-org/octo-repo/actions/runs/4242/artifacts/${artifact!.id}`)
    expect([...unzipEntries(await svc.downloadArtifact(artifact!)).keys()]).toEqual(['attempts.jsonl'])
  })

  it('without a runtime token it warns and returns no URL, calling no service', async () => {
    const before = svc.requests.length
    const warnings: string[] = []
    const env = runEnv()
    delete env.ACTIONS_RUNTIME_TOKEN
    const url = await uploadAttemptLog({ loopId: 'nightly-upgrade', files: [], tempDir: work, env, warn: (m) => warnings.push(m) })
    expect(url).toBeUndefined()
    expect(warnings).toEqual([expect.stringMatching(/the artifact service is not available/)])
    expect(svc.requests.length).toBe(before)
  })
})
