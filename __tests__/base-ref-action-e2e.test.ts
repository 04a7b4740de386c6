import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { DIST_INDEX, runAction } from './helpers/action-runner.js'
import { bareRemote } from './helpers/bare-remote.js'
import { buggyProject, sh, tempDir } from './helpers/repo.js'

/**
 * `base-ref` in the action names any branch, remote branch, tag or commit of origin, even from a
 * checkout as actions/checkout leaves it by default: one branch, one commit deep, no tags.
 */
function shallowFeatureCheckout(): { ws: string; main: string } {
  const { bare } = bareRemote(buggyProject())
  const main = sh(bare, ['rev-parse', 'main']).trim()
  sh(bare, ['tag', 'v1', main])
  const seed = tempDir('loopgate-seed-')
  sh(seed, ['clone', '-q', bare, '.'])
  sh(seed, ['switch', '-q', '-c', 'feature'])
  writeFileSync(path.join(seed, 'test/run.mjs'), "console.log('✓ math adds two numbers')\n")
  sh(seed, ['commit', '-q', '-am', 'weaken the test'])
  sh(seed, ['push', '-q', 'origin', 'feature'])
  const parent = tempDir('loopgate-checkout-')
  sh(parent, ['clone', '-q', '--depth', '1', '--single-branch', '--no-tags', '-b', 'feature', `file://${bare}`, 'ws'])
  return { ws: path.join(parent, 'ws'), main }
}

describe('base-ref in the action, from a shallow single-branch checkout', () => {
  beforeAll(() => {
    if (!existsSync(DIST_INDEX)) throw new Error('dist/index.js is missing: run `npm run package`')
  })

  it.each([['main'], ['origin/main'], ['v1'], ['commit']])(
    '%s: the protected tests come from that base',
    async (form) => {
      const { ws, main } = shallowFeatureCheckout()
      const ref = form === 'commit' ? main : form
      const run = await runAction({
        workspace: ws,
        inputs: {
          agent: 'command',
          'agent-command': 'date +%N >> notes',
          prompt: 'x',
          'gate-command': 'node test/run.mjs',
          'base-ref': ref,
          'max-iterations': '1',
          'dry-run': 'true'
        }
      })
      expect(run.outputs['stop-reason']).not.toBe('config-error')
      expect(run.summary).toContain(`base ${main.slice(0, 7)} (base-ref ${ref})`)
      // main's test, not the weakened one of the checked-out branch: an idle agent is not verified.
      expect(run.outputs['stop-reason']).not.toBe('verified')
    },
    120_000
  )
})
