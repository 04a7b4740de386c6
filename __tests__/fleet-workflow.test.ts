import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'
import { INPUT_SPECS } from '../src/contract.js'
import { ROOT } from './helpers/action-runner.js'
import { tempDir } from './helpers/repo.js'

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Fleet {
  on: { workflow_call: { inputs: Record<string, { required?: boolean }> } }
  jobs: {
    loop: { strategy: { 'fail-fast': boolean; matrix: { task: string } }; concurrency: { group: string }; steps: Step[] }
    summary: { needs: string; if: string; steps: Step[] }
  }
}

const fleet = yaml.load(readFileSync(path.join(ROOT, '.github', 'workflows', 'fleet.yml'), 'utf8')) as Fleet

function runStep(step: Step, cwd: string, env: Record<string, string>): void {
  execFileSync('bash', ['-e', '-c', step.run ?? ''], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' })
}

describe('the fleet fan-out workflow', () => {
  it('is reusable, fans a task list out to one job per loop, each with its own loop-id and concurrency group', () => {
    expect(fleet.on.workflow_call.inputs.tasks.required).toBe(true)
    expect(fleet.jobs.loop.strategy.matrix.task).toBe('${{ fromJSON(inputs.tasks) }}')
    expect(fleet.jobs.loop.strategy['fail-fast']).toBe(false)
    expect(fleet.jobs.loop.concurrency.group).toContain('matrix.task.loop-id')
    const step = fleet.jobs.loop.steps.find((s) => s.uses?.startsWith('loopgate/loopgate'))
    expect(step?.with?.['loop-id']).toBe('${{ matrix.task.loop-id }}')
    const names = INPUT_SPECS.map((s) => s.name)
    for (const input of Object.keys(step?.with ?? {})) expect(names).toContain(input)
    expect(fleet.jobs.summary).toMatchObject({ needs: 'loop', if: 'always()' })
  })

  it("collects every loop's outputs into one summary table with the total spend", () => {
    const work = tempDir('loopgate-fleet-')
    const record = fleet.jobs.loop.steps.find((s) => s.name === "Record this loop's outputs") as Step
    runStep(record, work, {
      LOOP_ID: 'api-deps',
      REPOSITORY: 'acme/api',
      OUTCOME: 'verified',
      STOP_REASON: 'verified',
      SPEND: '3.10',
      ITERATIONS: '2',
      PR: 'https://github.com/acme/api/pull/7',
      ISSUE: ''
    })
    runStep(record, work, {
      LOOP_ID: 'web-deps',
      REPOSITORY: 'acme/web',
      OUTCOME: 'escalated',
      STOP_REASON: 'same-failure',
      SPEND: '8.00',
      ITERATIONS: '4',
      PR: '',
      ISSUE: 'https://github.com/acme/web/issues/3'
    })
    runStep(record, work, { LOOP_ID: 'crashed', REPOSITORY: 'acme/x', OUTCOME: '', STOP_REASON: '', SPEND: '', ITERATIONS: '', PR: '', ISSUE: '' })
    const summaryFile = path.join(work, 'summary.md')
    writeFileSync(summaryFile, '')
    const summary = fleet.jobs.summary.steps.find((s) => s.name === 'One table for the fleet') as Step
    runStep(summary, work, { GITHUB_STEP_SUMMARY: summaryFile })
    const text = readFileSync(summaryFile, 'utf8')
    expect(text).toContain('| api-deps | acme/api | verified | verified | 2 | $3.10 | https://github.com/acme/api/pull/7 |')
    expect(text).toContain('| web-deps | acme/web | escalated | same-failure | 4 | $8.00 | https://github.com/acme/web/issues/3 |')
    expect(text).toContain('| crashed | acme/x | failed |')
    expect(text).toContain('Total spend: $11.10 over 3 loop(s).')
  })
})
