// Writes src/contract.ts, the table of action inputs and outputs, from action.yml: their names,
// descriptions, defaults and required flags. `npm run build` and `npm run package` run it first;
// a test checks the file is what this writes. `--print`: write it to stdout instead.
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import yaml from 'js-yaml'
import prettier from 'prettier'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const TARGET = path.join(ROOT, 'src', 'contract.ts')

function inputLine(name, spec) {
  const fields = [`name: ${JSON.stringify(name)}`, `description: ${JSON.stringify(String(spec.description ?? ''))}`]
  if (spec.default !== undefined) fields.push(`default: ${JSON.stringify(String(spec.default))}`)
  if (spec.required === true) fields.push('required: true')
  return `  { ${fields.join(', ')} },`
}

function outputLine(name, spec) {
  return `  { name: ${JSON.stringify(name)}, description: ${JSON.stringify(String(spec.description ?? ''))} },`
}

/** The text of src/contract.ts for the given action.yml text, formatted as the repository formats TypeScript. */
export async function contractSource(actionYml) {
  const action = yaml.load(actionYml)
  const inputs = Object.entries(action.inputs ?? {})
  const outputs = Object.entries(action.outputs ?? {})
  const text = [
    '// Generated from action.yml by scripts/generate-contract.mjs (npm run build): do not edit.',
    '// The action inputs and outputs; the CLI reads its options and --help from here.',
    '',
    'export interface InputSpec {',
    '  name: string',
    '  description: string',
    '  default?: string',
    '  required?: boolean',
    '}',
    '',
    'export interface OutputSpec {',
    '  name: string',
    '  description: string',
    '}',
    '',
    'export const INPUT_SPECS: readonly InputSpec[] = [',
    ...inputs.map(([name, spec]) => inputLine(name, spec)),
    ']',
    '',
    'export const OUTPUT_SPECS: readonly OutputSpec[] = [',
    ...outputs.map(([name, spec]) => outputLine(name, spec)),
    ']',
    '',
    `export const OUTPUT_NAMES = [${outputs.map(([name]) => JSON.stringify(name)).join(', ')}] as const`,
    ''
  ].join('\n')
  const options = (await prettier.resolveConfig(TARGET)) ?? {}
  return prettier.format(text, { ...options, filepath: TARGET })
}

const main = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (main) {
  const source = await contractSource(readFileSync(path.join(ROOT, 'action.yml'), 'utf8'))
  if (process.argv.includes('--print')) process.stdout.write(source)
  else writeFileSync(TARGET, source)
}
