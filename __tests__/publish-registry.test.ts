import { readFileSync } from 'node:fs'
import { createIntegration } from '../src/publish/github/integration.js'
import type { PublishContext, PublishResult, Publisher } from '../src/publish/publisher-types.js'
import { createPublisher, publisherNames, registerPublisher, type PublisherSetup } from '../src/publish/publishers.js'
import { executeRun } from '../src/run/execute-run.js'
import { workerAgentUser } from './helpers/action-runner.js'
import { buggyProject, makeRepo, sh, tempDir } from './helpers/repo.js'
import { settingsFor } from './helpers/settings.js'

/** A publisher that keeps what it was given: the setup it was made from and each run's context. */
class RecordingPublisher implements Publisher {
  readonly published: PublishContext[] = []
  preflights = 0

  constructor(readonly setup: PublisherSetup) {}

  async preflight(): Promise<null> {
    this.preflights++
    return null
  }

  async publish(ctx: PublishContext): Promise<PublishResult> {
    this.published.push(ctx)
    return { files: [], notes: [`recorded ${ctx.outcome.stopReason} at ${ctx.outcome.headCommit}`], branch: 'recorded/branch' }
  }
}

const made: RecordingPublisher[] = []
registerPublisher('recording', (setup) => {
  const publisher = new RecordingPublisher(setup)
  made.push(publisher)
  return publisher
})

describe('the publisher registry', () => {
  it('holds the dry-run and GitHub publishers, and refuses an unknown name or a second registration', () => {
    expect(publisherNames()).toEqual(expect.arrayContaining(['dry-run', 'github', 'recording']))
    const setup = {
      plan: { kind: 'skip', eventName: 'x', message: 'm' },
      env: {},
      tempDir: tempDir(),
      warn: () => undefined,
      recorded: []
    } as unknown as PublisherSetup
    expect(() => createPublisher('nowhere', setup)).toThrow(`unknown publisher "nowhere" (known: ${publisherNames().join(', ')})`)
    expect(() => registerPublisher('dry-run', () => ({ publish: async () => ({ files: [], notes: [] }) }))).toThrow(/already registered/)
  })

  it('a registered publisher is picked by the integration and publishes a whole run (real git, a command agent)', async () => {
    const repo = makeRepo(buggyProject())
    const settings = settingsFor(repo, {
      'agent-command': `sed -i 's/a - b/a + b/' src/math.mjs; echo '{"cost_usd": 0.5}' > "$LOOPGATE_COST_FILE"`,
      'gate-command': 'node test/run.mjs',
      'loop-id': 'registry'
    })
    const runnerTemp = tempDir('loopgate-runner-')
    const integration = await createIntegration({ settings, env: {}, tempDir: runnerTemp, warn: () => undefined, recorded: [7], publisher: 'recording' })
    expect(integration.publisher).toBeInstanceOf(RecordingPublisher)
    const publisher = made.at(-1) as RecordingPublisher
    expect(publisher.setup).toMatchObject({ plan: { kind: 'branch', workBranch: 'loopgate/registry' }, tempDir: runnerTemp, recorded: [7] })

    const report = await executeRun(integration.settings, {
      env: process.env,
      runId: `registry-${process.pid}`,
      tempDir: runnerTemp,
      publisher: integration.publisher,
      signal: new AbortController().signal,
      report: () => undefined,
      agentUser: workerAgentUser()
    })
    expect(report.stopReason).toBe('verified')
    expect(publisher.preflights).toBe(1)
    expect(publisher.published).toHaveLength(1)
    const ctx = publisher.published[0]
    expect(ctx.outcome.stopReason).toBe('verified')
    expect(ctx.outcome.headCommit).toBe(sh(repo, ['rev-parse', 'HEAD']).trim())
    expect(ctx.settings.loopId).toBe('registry')
    expect(readFileSync(ctx.logFile, 'utf8')).toContain('"type":"stop"')
    expect(readFileSync(`${repo}/src/math.mjs`, 'utf8')).toContain('a + b')
    // What the publisher returned is the run's published result.
    expect(report.published).toMatchObject({ branch: 'recorded/branch', notes: [`recorded verified at ${ctx.outcome.headCommit}`] })
  })
})
