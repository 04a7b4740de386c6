import type { ProtectionSettings } from '../src/gate/open.js'
import { settingsForPlan, type EventSettings } from '../src/github/events.js'
import { readSettings } from '../src/inputs/read-settings.js'
import { type Settings } from '../src/settings.js'
import type { PublisherSettings } from '../src/publish/publisher-types.js'
import type { StateSessionSettings } from '../src/state/session.js'
import type { UpgradeSettings } from '../src/upgrade/prepare.js'
import { tempDir } from './helpers/repo.js'

const inputs: Record<string, string> = { agent: 'command', 'agent-command': 'true', prompt: 'task', 'gate-command': 'npm test' }

describe('settings split by concern', () => {
  it('a module that takes only its concerns hands the whole settings back: the plan sets the gate base and keeps the rest', () => {
    const settings = readSettings((name) => inputs[name] ?? '', { GITHUB_WORKSPACE: tempDir() })
    const plan = { kind: 'pull-request', eventName: 'pull_request', number: 7, url: 'u', headBranch: 'feature', headSha: 'abc', baseBranch: 'release' } as const
    const adjusted: Settings = settingsForPlan(settings, plan)
    expect(adjusted).toEqual({ ...settings, baseRef: 'release' })
    expect(settingsForPlan({ ...settings, baseRef: 'v2' }, plan).baseRef).toBe('v2')
  })
})

/*
 * Each module receives only the concerns it reads. These lines are checked by tsc (`npm run build`,
 * run in CI), not by jest: widening a module's settings back to the whole bag makes an
 * `@ts-expect-error` below unused, and tsc fails.
 */
export function gateReadsNoPublishTarget(s: ProtectionSettings): unknown {
  // @ts-expect-error the gate does not receive where the work is published
  return s.reviewers ?? s.gateCommand
}

export function gateReadsNoLoopLimit(s: ProtectionSettings): unknown {
  // @ts-expect-error the gate does not receive the loop's spend ceiling
  return s.spendCeilingUsd
}

export function publisherReadsNoAgentSecret(s: PublisherSettings): unknown {
  // @ts-expect-error a publisher does not receive the agent's API key
  return s.agentApiKey ?? s.labels
}

export function eventPlanningReadsNoGateCommand(s: EventSettings): unknown {
  // @ts-expect-error planning an event does not receive the gate command
  return s.gateCommand ?? s.commentCommand
}

export function stateReadsNoAgentCredential(s: StateSessionSettings): unknown {
  // @ts-expect-error the state session does not receive the agent's credentials
  return s.agentCredentials ?? s.loopId
}

export function upgradeReadsNoToken(s: UpgradeSettings): unknown {
  // @ts-expect-error a dependency upgrade does not receive the GitHub token
  return s.githubToken ?? s.allowMajor
}
