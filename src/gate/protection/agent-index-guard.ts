import { syncAgentIndex } from '../../git/agent-index.js'
import type { AgentUser } from '../../isolation/agent-user.js'
import type { CallGuard, GuardReport } from '../../loop/engine-types.js'

/**
 * Before each call: the paths loopgate wrote back into the work tree since the last one (protected
 * files and dependency files it restored) are staged in the agent's own index as they now are
 * (see syncAgentIndex), so the agent's git agrees with its work tree about them.
 */
export class AgentIndexGuard implements CallGuard {
  constructor(
    private readonly workspace: string,
    private readonly user: AgentUser | undefined,
    private readonly restored: () => readonly string[]
  ) {}

  async beforeCall(): Promise<void> {
    await syncAgentIndex(this.workspace, this.restored(), this.user)
  }

  async afterCall(): Promise<GuardReport> {
    return { rejected: [], tampered: false }
  }
}
