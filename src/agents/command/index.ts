import { CONTROLLED_FLAGS, FRESH_PROCESS_FLAGS, type AgentSpec } from '../agent-spec.js'
import { CommandAgent } from './adapter.js'

/** Any shell command, run once per iteration (`agent-command`). */
export const command: AgentSpec = {
  name: 'command',
  summary: 'any shell command',
  configEnv: [],
  refusedArgs: FRESH_PROCESS_FLAGS,
  controlledArgs: CONTROLLED_FLAGS,
  requiredInputs: [{ input: 'agent-command', accepted: "a shell command when 'agent' is 'command'" }],
  createAdapter: (settings) => new CommandAgent(settings.agentCommand ?? '')
}
