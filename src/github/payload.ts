import { readFileSync } from 'node:fs'

/**
 * The triggering event's payload (the JSON file GITHUB_EVENT_PATH names); an empty object when
 * there is none or it is not a JSON object.
 */
export function readEventPayload(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const file = env.GITHUB_EVENT_PATH
  if (!file) return {}
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'))
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
