import { agentSpecs } from '../agents/agent-registry.js'
import type { HelpWords } from '../agents/agent-spec.js'
import { exitCodeFor, STOP_REASONS } from '../loop/stop-reasons.js'
import { CLI_SWITCHES, RUN_OPTIONS } from './args.js'

/** Each option of `loopgate run` in the words of a terminal: its value's placeholder and one short line. */
const CLI_WORDS: Record<string, HelpWords> = {
  prompt: ['<text>', 'the task'],
  'prompt-file': ['<file>', 'a file in the repository holding the task'],
  task: ['<task>', 'a built-in task instead of a prompt: dependency-upgrade'],
  ignore: ['<list>', 'dependency-upgrade: packages to leave alone (name, name@version, *)'],
  'allow-major': ['<bool>', 'dependency-upgrade: also cross a major version'],
  'working-directory': ['<dir>', 'the folder the loop works in, relative to the repository top'],
  'agent-command': ['<cmd>', 'agent command: the shell command run once per iteration'],
  'agent-args': ['<args>', 'extra arguments for the agent CLI (e.g. --model x)'],
  'agent-version': ['<version>', 'the agent CLI version installed when it is not on PATH'],
  'agent-env': ['<names>', 'extra environment variables passed to the agent and the gate'],
  'max-iterations': ['<n>', 'iteration cap'],
  'max-turns': ['<n>', 'turn cap per agent call'],
  'call-budget-usd': ['<usd>', 'budget per call; a call with no cost report is charged this much'],
  'spend-ceiling-usd': ['<usd>', 'spend ceiling of this run'],
  'call-timeout-minutes': ['<min>', 'wall clock per agent call'],
  'time-limit-minutes': ['<min>', 'wall clock of the whole run'],
  'gate-timeout-minutes': ['<min>', 'wall clock per gate run'],
  'no-progress-limit': ['<n>', 'stop after this many iterations in a row with no change'],
  'same-failure-limit': ['<n>', 'stop after the same gate failure this many times in a row'],
  'gate-command': ['<cmd>', 'the command that runs the protected tests (required)'],
  'gate-setup': ['<cmd>', 'run before each gate in its clean checkout (e.g. npm ci)'],
  'gate-report': ['<file>', 'a JUnit XML, jest/vitest JSON or TAP report the gate writes; exit-code: judge by the exit code alone'],
  'protected-paths': ['<globs>', 'more paths the agent may not change (!glob removes one)'],
  'base-ref': ['<ref>', 'the branch, tag or commit the protected tests come from [default: the checked-out commit]'],
  'features-file': ['<file>', 'a flip-only JSON checklist, verified by the gate report'],
  'progress-file': ['<file>', 'notes carried between iterations'],
  'loop-id': ['<id>', 'names the loop: its branch loopgate/<id> and its state [default: local]'],
  'period-ceiling-usd': ['<usd>', 'rolling spend ceiling across runs of this loop'],
  'period-hours': ['<hours>', 'the window of --period-ceiling-usd'],
  'price-table': ['<json>', 'Codex pricing override'],
  model: ['<model>', "the model [default: the agent CLI's own]"],
  'commit-author': ['<"Name <email>">', "author of loopgate's commits [default: loopgate <loopgate@localhost>]"],
  resume: ['<bool>', "resume the loop's unfinished work when there is some [default: true]"],
  workspace: ['<dir>', 'the repository, or any folder in it [default: the current folder]'],
  'temp-dir': ['<dir>', 'where the run folder is made [default: $RUNNER_TEMP, else a private folder in the OS temp dir]']
}

/** "a, b or c" */
const listed = (words: string[]): string => (words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : words.join(''))

/** The words of the options the agents bring: `--agent`, `--provider` and each agent's credential inputs, from their descriptors. */
function agentWords(): Record<string, HelpWords> {
  const specs = agentSpecs()
  const providers = specs.flatMap((spec) => (spec.providers ? [`${spec.providers.map((p) => p.name).join(', ')} (${spec.name})`] : []))
  return {
    agent: ['<name>', listed(specs.map((spec) => spec.name))],
    provider: ['<name>', providers.join('; ')],
    ...Object.assign({}, ...specs.map((spec) => spec.inputHelp ?? {}))
  }
}

/** The first sentence of an action input's description, for an option with no CLI words yet. */
const firstSentence = (text: string): string => text.split(/(?<=\.)\s/)[0].replace(/\.$/, '')

export const RUN_USAGE = 'usage: loopgate run --gate-command <cmd> (--prompt <text> | --prompt-file <file> | --task <task>) [options]'

/** `loopgate --help`: what it is, the commands, where to read on. */
export function mainHelp(stateFolder: string): string {
  return `${[
    'loopgate — runs a coding agent in a bounded loop until a protected test gate passes',
    '',
    RUN_USAGE,
    '       loopgate run --help     the options of run, and the exit statuses',
    '       loopgate --version',
    '',
    'loopgate run works in a clone of the checked-out commit and leaves its commits on the branch',
    'loopgate/<loop-id> of your repository: your branch, index and working tree stay as they were.',
    `The loop's state (charges, upgrade attempts, failures) lives in ${stateFolder}.`
  ].join('\n')}\n`
}

/** `loopgate run --help`: every option with its placeholder and default, the state folder, the exit statuses. */
export function runHelp(stateFolder: string): string {
  const words = { ...agentWords(), ...CLI_WORDS }
  const rows = RUN_OPTIONS.map((o) => {
    const [placeholder, text] = words[o.name] ?? ['<value>', firstSentence(o.description)]
    const shownDefault = 'default' in o && o.default !== undefined && !text.includes('[default:') && !CLI_ONLY_DEFAULT.has(o.name)
    return { flag: `--${o.name} ${placeholder}`, text: shownDefault ? `${text} [default: ${o.default}]` : text }
  })
  rows.push(...CLI_SWITCHES.map((o) => ({ flag: `--${o.name}`, text: o.description })))
  const width = Math.max(...rows.map((r) => r.flag.length)) + 2
  const keys = agentSpecs().flatMap((spec) => (spec.apiKey ? [spec.apiKey.env] : []))
  const lines = [
    RUN_USAGE,
    '',
    'Runs the loop on a clone of the checked-out commit; its commits come back as the branch',
    'loopgate/<loop-id>, and the last lines say how to look at it and how to delete it. It publishes nothing.',
    '',
    'options:',
    ...rows.map((r) => `  ${r.flag.padEnd(width)}${r.text}`),
    '',
    `Model credentials: the options above, or ${keys.join(' / ')} in the environment.`,
    `Loop state (kept between runs of one loop): ${stateFolder}; delete that folder to forget it.`,
    '',
    'exit status (one per stop reason):',
    ...STOP_REASONS.map((reason) => `  ${String(exitCodeFor(reason)).padStart(3)}  ${reason}`),
    '    2  usage error'
  ]
  return `${lines.join('\n')}\n`
}

/** The CLI's own options state their default in their words. */
const CLI_ONLY_DEFAULT = new Set(['workspace', 'temp-dir'])
