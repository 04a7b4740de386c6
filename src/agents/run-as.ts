import type { AgentCall } from './types.js'

/** The uid the agent process will run as. */
export function effectiveUid(call: Pick<AgentCall, 'user'>): number {
  if (call.user) return call.user.uid
  return typeof process.getuid === 'function' ? process.getuid() : -1
}

/** The agent's environment: HOME and USER follow the unprivileged user when there is one. */
export function processEnv(call: AgentCall, defaults: Record<string, string>, set: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...defaults, ...call.env, ...set }
  if (call.user) {
    env.HOME = call.user.home
    env.USER = call.user.name
    env.LOGNAME = call.user.name
  }
  return env
}

export function tail(text: string, max = 8000): string {
  return text.length > max ? text.slice(-max) : text
}
