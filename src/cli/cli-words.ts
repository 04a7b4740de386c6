import { INPUT_SPECS } from '../contract.js'

const INPUT_NAMES = new Set(INPUT_SPECS.map((s) => s.name))

/**
 * The action's words said as the CLI's: an input is an option (`Input 'max-iterations'` and
 * `` `max-iterations` `` become `--max-iterations`), a workflow is a run.
 */
export function cliWords(text: string): string {
  return text
    .replace(/Input '([a-z0-9-]+)'/g, (whole, name: string) => (INPUT_NAMES.has(name) ? `--${name}` : whole))
    .replace(/`([a-z0-9-]+)`/g, (whole, name: string) => (INPUT_NAMES.has(name) ? `--${name}` : whole))
    .replace(/`([a-z0-9-]+): ([^`]+)`/g, (whole, name: string, value: string) => (INPUT_NAMES.has(name) ? `--${name} ${value}` : whole))
    .replace(/Re-run the workflow/g, 'Run loopgate again')
}

/** Notes only `--verbose` prints: the resolved protected globs (some seventy on every run). */
export function verboseOnly(note: string): boolean {
  return note.startsWith('protected paths (resolved):')
}
