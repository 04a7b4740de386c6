import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { BaseSnapshot } from '../src/gate/baseline/snapshot.js'
import { ProtectedPaths } from '../src/gate/protection/protected-paths.js'
import { TamperGuard } from '../src/gate/protection/tamper.js'
import { GitRepository } from '../src/git/repository.js'
import { runLoop } from '../src/loop/engine.js'
import { decisionFor } from '../src/publish/decision.js'
import type { PublishContext } from '../src/publish/publisher-types.js'
import { fakeWorld } from '../__fixtures__/engine-fakes.js'
import { makeRepo, sh } from './helpers/repo.js'

/**
 * The escalation's decision names the protected paths the agent changed as the tamper guard found
 * them, whatever characters their names hold: never read back out of the guard's message.
 */
async function tamperingRun(names: string[]): Promise<string> {
  const ws = makeRepo(Object.fromEntries(names.map((n) => [n, 'test("ok", () => {})\n'])))
  const repository = GitRepository.plain(ws)
  const snapshot = await BaseSnapshot.take(repository, sh(ws, ['rev-parse', 'HEAD']).trim(), { paths: new ProtectedPaths(['test/**']) })
  const guard = new TamperGuard({ workspace: ws, repository, snapshot })
  await guard.restore(true)
  const w = fakeWorld([], {}, { files: ['src/a.js'], gate: 'fail', failure: 'x' })
  const agent = w.deps.agent
  w.deps.agent = {
    run: async (request) => {
      for (const name of names) writeFileSync(path.join(ws, name), 'test("skipped", () => {})\n')
      return agent.run(request)
    }
  }
  w.deps.guards = [guard]
  const out = await runLoop({ ...w.config, sameFailureLimit: 10 }, w.deps)
  expect(out.stopReason).toBe('protected-tampering')
  return decisionFor({ outcome: out } as unknown as PublishContext)
}

describe('the protected paths in the tampering decision', () => {
  it('names a path with a comma and a full stop in it whole', async () => {
    const decision = await tamperingRun(['test/a, b.test.js', 'test/c. They were restored.test.js'])
    expect(decision).toContain('the task needs ` test/a, b.test.js `, ` test/c. They were restored.test.js ` changed, which the agent may not do')
  })

  it('counts every path the guard restored, past the twenty its message lists', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `test/t${String(i).padStart(2, '0')}.test.js`)
    const decision = await tamperingRun(names)
    expect(decision).toContain('` test/t00.test.js `, ` test/t01.test.js `, ` test/t02.test.js ` and 22 more changed')
  })
})
