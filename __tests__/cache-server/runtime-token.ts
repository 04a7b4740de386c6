/**
 * An unsigned JWT shaped like the runner's ACTIONS_RUNTIME_TOKEN: @actions/artifact only decodes it
 * (jwt-decode, no verification) and reads the workflow run / job backend ids from the
 * `Actions.Results:<run>:<job>` entry of its space-separated `scp` claim.
 */
export interface RuntimeToken {
  token: string
  workflowRunBackendId: string
  workflowJobRunBackendId: string
}

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url')

export function runtimeToken(
  workflowRunBackendId = 'ce7f54c7-61c7-4aae-887f-30da475f5f1a',
  workflowJobRunBackendId = 'ca395085-040a-526b-2ce8-bdc85f692774'
): RuntimeToken {
  const now = Math.floor(Date.now() / 1000)
  const claims = {
    scp: `Actions.ExampleScope Actions.Results:${workflowRunBackendId}:${workflowJobRunBackendId}`,
    iat: now,
    exp: now + 3600
  }
  return { token: `${b64url({ typ: 'JWT', alg: 'none' })}.${b64url(claims)}.`, workflowRunBackendId, workflowJobRunBackendId }
}
