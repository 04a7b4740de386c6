import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'
import { INPUT_SPECS, OUTPUT_NAMES, OUTPUT_SPECS } from '../src/contract.js'
import { STOP_REASONS } from '../src/loop/stop-reasons.js'
import { ROOT } from './helpers/action-runner.js'

interface ActionYml {
  runs: { using: string; main: string; post: string; 'post-if': string }
  inputs: Record<string, { description: string; default?: string; required?: boolean }>
  outputs: Record<string, { description: string }>
}

const action = yaml.load(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as ActionYml

describe('the public contract', () => {
  it('runs on node24 with main and post entries', () => {
    expect(action.runs).toMatchObject({ using: 'node24', main: 'dist/index.js', post: 'dist/index.js', 'post-if': 'always()' })
  })

  it('action.yml and the shared input table agree on names, defaults and required flags', () => {
    const fromYml = Object.entries(action.inputs).map(([name, spec]) => ({
      name,
      default: spec.default === undefined ? undefined : String(spec.default),
      required: spec.required === true
    }))
    const fromTable = INPUT_SPECS.map((spec) => ({ name: spec.name, default: spec.default, required: spec.required === true }))
    expect(fromTable).toEqual(fromYml)
    for (const spec of INPUT_SPECS) expect(spec.description).toBe(action.inputs[spec.name].description)
  })

  it('src/contract.ts is what the generator writes from action.yml (a hand edit fails here: run npm run build)', () => {
    const generated = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'generate-contract.mjs'), '--print'], { encoding: 'utf8' })
    expect(readFileSync(path.join(ROOT, 'src', 'contract.ts'), 'utf8')).toBe(generated)
  })

  it('the output table has every output of action.yml with its description', () => {
    expect(OUTPUT_SPECS).toEqual(Object.entries(action.outputs).map(([name, spec]) => ({ name, description: spec.description })))
  })

  it('has every input and output DESIGN.md names', () => {
    const design = [
      'agent',
      'prompt',
      'prompt-file',
      'agent-command',
      'agent-args',
      'max-iterations',
      'max-turns',
      'call-budget-usd',
      'spend-ceiling-usd',
      'call-timeout-minutes',
      'time-limit-minutes',
      'no-progress-limit',
      'same-failure-limit',
      'gate-command',
      'gate-setup',
      'gate-report',
      'protected-paths',
      'base-ref',
      'features-file',
      'progress-file',
      'loop-id',
      'period-ceiling-usd',
      'period-hours',
      'max-open-prs',
      'on-success',
      'on-escalate',
      'escalate-to',
      'labels',
      'draft',
      'github-token',
      'anthropic-api-key',
      'openai-api-key',
      'dry-run',
      'task'
    ]
    for (const name of design) expect(Object.keys(action.inputs)).toContain(name)
    expect(Object.keys(action.outputs)).toEqual([...OUTPUT_NAMES])
    expect(action.inputs['github-token'].default).toBe('${{ github.token }}')
  })

  it('documents the closed set of stop reasons in the stop-reason output', () => {
    for (const reason of STOP_REASONS) expect(action.outputs['stop-reason'].description).toContain(reason)
  })
})

describe('the documentation', () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  const inputs = readFileSync(path.join(ROOT, 'docs', 'inputs.md'), 'utf8')
  const stopReasons = readFileSync(path.join(ROOT, 'docs', 'stop-reasons.md'), 'utf8')

  it('lists every input with its default, and every stop reason', () => {
    for (const spec of INPUT_SPECS) {
      const row = inputs.split('\n').find((l) => l.startsWith(`| \`${spec.name}\` |`))
      expect(row).toBeDefined()
      if (spec.default !== undefined) expect(row).toContain(`\`${spec.default}\``)
    }
    for (const reason of STOP_REASONS) expect(stopReasons).toContain(`| \`${reason}\` |`)
  })

  it('links every page under docs/ from the README, and every relative link resolves', () => {
    const pages = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md'))
    for (const page of pages) expect(readme).toContain(`(docs/${page})`)
    const files: [string, string][] = [
      ['README.md', readme],
      ...pages.map((p): [string, string] => [`docs/${p}`, readFileSync(path.join(ROOT, 'docs', p), 'utf8')])
    ]
    const broken: string[] = []
    for (const [file, text] of files) {
      for (const m of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]
        if (/^[a-z]+:/.test(target)) continue
        if (!existsSync(path.join(ROOT, path.dirname(file), target))) broken.push(`${file}: ${target}`)
      }
    }
    expect(broken).toEqual([])
  })

  it('gives the two set-up commands', () => {
    expect(readme).toContain('npm ci && npm run demo')
    expect(readme).toContain('npm test')
  })
})
