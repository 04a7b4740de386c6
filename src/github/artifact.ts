import { copyFileSync, existsSync, mkdtempSync } from 'node:fs'
import path from 'node:path'

interface ArtifactFile {
  file: string
  /** Its name inside the artifact. */
  name: string
}

export function artifactName(loopId: string, env: NodeJS.ProcessEnv): string {
  const attempt = Number(env.GITHUB_RUN_ATTEMPT ?? '1')
  return attempt > 1 ? `loopgate-${loopId}-attempt-${attempt}` : `loopgate-${loopId}`
}

/** The repository's web address (`https://github.com/<owner>/<repo>`), when the runner names it. */
export function repositoryUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (!env.GITHUB_REPOSITORY || !/^[\w.-]+\/[\w.-]+$/.test(env.GITHUB_REPOSITORY)) return undefined
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  if (!/^https?:\/\//.test(server)) return undefined
  return `${server}/${env.GITHUB_REPOSITORY}`
}

export function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const repository = repositoryUrl(env)
  if (!repository || !env.GITHUB_RUN_ID) return undefined
  return `${repository}/actions/runs/${env.GITHUB_RUN_ID}`
}

/** The loop's files to upload, the folder they are staged in, and where warnings go. */
interface AttemptLogUpload {
  loopId: string
  files: ArtifactFile[]
  tempDir: string
  env: NodeJS.ProcessEnv
  warn: (message: string) => void
}

/**
 * Uploads the attempt log and the progress file as a workflow artifact named after the loop.
 * Returns its URL, or undefined (with a warning) when the artifact service is unavailable:
 * an upload failure never fails the run.
 */
export async function uploadAttemptLog({ loopId, files, tempDir, env, warn }: AttemptLogUpload): Promise<string | undefined> {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
    warn('loopgate: the artifact service is not available (no ACTIONS_RUNTIME_TOKEN); the attempt log is only in the step summary and the run directory')
    return undefined
  }
  try {
    const dir = mkdtempSync(path.join(tempDir, 'loopgate-artifact-'))
    const staged = files
      .filter((f) => existsSync(f.file))
      .map((f) => {
        const target = path.join(dir, f.name)
        copyFileSync(f.file, target)
        return target
      })
    // Loaded only when there is something to upload (it is a large part of the bundle).
    const { DefaultArtifactClient } = await import('@actions/artifact')
    const client = new DefaultArtifactClient()
    const { id } = await client.uploadArtifact(artifactName(loopId, env), staged, dir, { retentionDays: 30 })
    const run = runUrl(env)
    return run && id !== undefined ? `${run}/artifacts/${id}` : run
  } catch (err) {
    warn(`loopgate: uploading the attempt log as an artifact failed: ${err instanceof Error ? err.message : String(err)}`)
    return undefined
  }
}
