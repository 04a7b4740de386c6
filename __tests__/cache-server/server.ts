import { BlobSASPermissions, BlobServiceClient, generateBlobSASQueryParameters, StorageSharedKeyCredential } from '@azure/storage-blob'
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { DEV_ACCOUNT, DEV_KEY, startAzurite, type Azurite } from './azurite.js'

const SERVICE = '/twirp/github.actions.results.api.v1.CacheService/'
const ARTIFACT_SERVICE = '/twirp/github.actions.results.api.v1.ArtifactService/'
const CONTAINER = 'actions-cache'
const ARTIFACT_CONTAINER = 'actions-results'

export interface CacheEntry {
  key: string
  version: string
  blobName: string
  finalized: boolean
  sizeBytes: number
  createdAt: number
  id: number
}

export interface ArtifactEntry {
  name: string
  workflowRunBackendId: string
  workflowJobRunBackendId: string
  mimeType: string | undefined
  expiresAt: string | undefined
  blobName: string
  finalized: boolean
  /** The size FinalizeArtifact reported. */
  sizeBytes: number
  /** The hash FinalizeArtifact reported (`sha256:<hex>`). */
  hash: string | undefined
  id: number
}

export interface CacheServiceOptions {
  /** The bearer token the library must send (ACTIONS_RUNTIME_TOKEN). */
  token?: string
}

/**
 * A local stand-in for the Actions results service: the cache service (v2) twirp JSON methods
 * @actions/cache calls and the artifact service methods @actions/artifact's upload calls
 * (CreateArtifact, FinalizeArtifact), with blobs in Azurite behind signed URLs, as the real service
 * hands out Azure SAS URLs. Artifact uploads need a JWT runtime token (see runtime-token.ts).
 */
export class LocalCacheService {
  readonly entries: CacheEntry[] = []
  readonly artifacts: ArtifactEntry[] = []
  /** Every twirp call; artifact service methods are recorded as `ArtifactService/<method>`. */
  readonly requests: { method: string; body: Record<string, unknown> }[] = []
  /** When set, every twirp call answers this HTTP status (e.g. 500). */
  failWith: number | null = null
  private server: http.Server | null = null
  private azurite: Azurite | null = null
  private credential = new StorageSharedKeyCredential(DEV_ACCOUNT, DEV_KEY)
  private nextId = 1
  readonly token: string
  url = ''

  constructor(opts: CacheServiceOptions = {}) {
    this.token = opts.token ?? `runtime-${createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 16)}`
  }

  /** The environment @actions/cache needs to talk to this service. */
  env(): Record<string, string> {
    return { ACTIONS_CACHE_SERVICE_V2: 'true', ACTIONS_RESULTS_URL: `${this.url}/`, ACTIONS_RUNTIME_TOKEN: this.token }
  }

  async start(): Promise<void> {
    this.azurite = await startAzurite()
    await this.blobService().getContainerClient(CONTAINER).createIfNotExists()
    await this.blobService().getContainerClient(ARTIFACT_CONTAINER).createIfNotExists()
    this.server = http.createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  async stop(): Promise<void> {
    if (this.server) {
      this.server.closeAllConnections()
      await new Promise<void>((resolve) => this.server!.close(() => resolve()))
      this.server = null
    }
    await this.azurite?.stop()
    this.azurite = null
  }

  blobService(): BlobServiceClient {
    return new BlobServiceClient(this.azurite!.accountUrl, this.credential)
  }

  /** The stored archive of an entry (what the library uploaded). */
  async download(entry: CacheEntry): Promise<Buffer> {
    return this.blobService().getContainerClient(CONTAINER).getBlobClient(entry.blobName).downloadToBuffer()
  }

  /** Replaces an entry's stored archive (to plant a damaged one). */
  async overwrite(entry: CacheEntry, bytes: Buffer): Promise<void> {
    await this.blobService().getContainerClient(CONTAINER).getBlockBlobClient(entry.blobName).uploadData(bytes)
  }

  /** The stored zip of an artifact (what the library uploaded). */
  async downloadArtifact(entry: ArtifactEntry): Promise<Buffer> {
    return this.blobService().getContainerClient(ARTIFACT_CONTAINER).getBlobClient(entry.blobName).downloadToBuffer()
  }

  finalizedKeys(): string[] {
    return this.entries.filter((e) => e.finalized).map((e) => e.key)
  }

  private signedUrl(blobName: string, permissions: string, containerName = CONTAINER): string {
    const sas = generateBlobSASQueryParameters(
      {
        containerName,
        blobName,
        permissions: BlobSASPermissions.parse(permissions),
        startsOn: new Date(Date.now() - 60_000),
        expiresOn: new Date(Date.now() + 3_600_000)
      },
      this.credential
    ).toString()
    return `${this.azurite!.accountUrl}/${containerName}/${encodeURIComponent(blobName)}?${sas}`
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const reply = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>
    } catch {
      return reply(400, { code: 'malformed', msg: 'body is not JSON' })
    }
    const url = req.url ?? ''
    const prefix = [SERVICE, ARTIFACT_SERVICE].find((p) => url.startsWith(p))
    if (req.method !== 'POST' || !prefix) return reply(404, { code: 'bad_route', msg: `no route ${req.method} ${url}` })
    const method = prefix === SERVICE ? url.slice(SERVICE.length) : `ArtifactService/${url.slice(ARTIFACT_SERVICE.length)}`
    this.requests.push({ method, body })
    if (req.headers.authorization !== `Bearer ${this.token}`) return reply(401, { code: 'unauthenticated', msg: 'bad token' })
    if (this.failWith !== null) return reply(this.failWith, { code: 'internal', msg: 'the cache service is failing (test)' })
    switch (method) {
      case 'CreateCacheEntry':
        return reply(200, this.create(body))
      case 'FinalizeCacheEntryUpload':
        return reply(200, this.finalize(body))
      case 'GetCacheEntryDownloadURL':
        return reply(200, this.lookup(body))
      case 'ArtifactService/CreateArtifact':
        return reply(200, this.createArtifact(body))
      case 'ArtifactService/FinalizeArtifact':
        return reply(200, this.finalizeArtifact(body))
      default:
        return reply(404, { code: 'bad_route', msg: `unknown method ${method}` })
    }
  }

  private create(body: Record<string, unknown>): Record<string, unknown> {
    const key = String(body.key ?? '')
    const version = String(body.version ?? '')
    if (!key || !version) return { ok: false, message: 'key and version are required' }
    if (this.entries.some((e) => e.key === key && e.version === version)) {
      return { ok: false, message: `cache entry ${key} already exists` }
    }
    const id = this.nextId++
    const blobName = `${id}-${createHash('sha256').update(`${key}\n${version}`).digest('hex').slice(0, 24)}`
    this.entries.push({ key, version, blobName, finalized: false, sizeBytes: 0, createdAt: Date.now() + id / 1000, id })
    return { ok: true, signed_upload_url: this.signedUrl(blobName, 'cw') }
  }

  private finalize(body: Record<string, unknown>): Record<string, unknown> {
    const entry = this.entries.find((e) => e.key === body.key && e.version === body.version && !e.finalized)
    if (!entry) return { ok: false, message: `no pending entry ${String(body.key)}` }
    entry.finalized = true
    entry.sizeBytes = Number(body.size_bytes ?? 0)
    return { ok: true, entry_id: String(entry.id) }
  }

  /** Exact key first, then each restore key as a prefix, newest entry first (as the service does). */
  private lookup(body: Record<string, unknown>): Record<string, unknown> {
    const version = String(body.version ?? '')
    const ready = this.entries.filter((e) => e.finalized && e.version === version).sort((a, b) => b.createdAt - a.createdAt)
    const key = String(body.key ?? '')
    const restoreKeys = Array.isArray(body.restore_keys) ? body.restore_keys.map(String) : []
    const hit = ready.find((e) => e.key === key) ?? restoreKeys.map((p) => ready.find((e) => e.key.startsWith(p))).find(Boolean)
    if (!hit) return { ok: false }
    return { ok: true, signed_download_url: this.signedUrl(hit.blobName, 'r'), matched_key: hit.key }
  }

  /** Artifact names are unique per workflow run (as the service enforces). */
  private createArtifact(body: Record<string, unknown>): Record<string, unknown> {
    const name = String(body.name ?? '')
    const workflowRunBackendId = String(body.workflow_run_backend_id ?? '')
    const workflowJobRunBackendId = String(body.workflow_job_run_backend_id ?? '')
    if (!name || !workflowRunBackendId || !workflowJobRunBackendId) {
      return { ok: false, message: 'name and the workflow run / job backend ids are required' }
    }
    if (this.artifacts.some((a) => a.name === name && a.workflowRunBackendId === workflowRunBackendId)) {
      return { ok: false, message: `artifact ${name} already exists in this run` }
    }
    const id = this.nextId++
    const blobName = `${workflowRunBackendId}/${id}-${name}.zip`
    this.artifacts.push({
      name,
      workflowRunBackendId,
      workflowJobRunBackendId,
      mimeType: typeof body.mime_type === 'string' ? body.mime_type : undefined,
      expiresAt: typeof body.expires_at === 'string' ? body.expires_at : undefined,
      blobName,
      finalized: false,
      sizeBytes: 0,
      hash: undefined,
      id
    })
    return { ok: true, signed_upload_url: this.signedUrl(blobName, 'cw', ARTIFACT_CONTAINER) }
  }

  private finalizeArtifact(body: Record<string, unknown>): Record<string, unknown> {
    const entry = this.artifacts.find(
      (a) =>
        a.name === body.name &&
        a.workflowRunBackendId === body.workflow_run_backend_id &&
        a.workflowJobRunBackendId === body.workflow_job_run_backend_id &&
        !a.finalized
    )
    if (!entry) return { ok: false }
    entry.finalized = true
    entry.sizeBytes = Number(body.size ?? 0)
    entry.hash = typeof body.hash === 'string' ? body.hash : undefined
    // int64 travels as a JSON string in twirp's protobuf JSON mapping.
    return { ok: true, artifact_id: String(entry.id) }
  }
}
