/**
 * The judge never fetches its runner: `npx <runner>` for a package the base neither declares nor
 * installs would run whatever the registry serves (the newest, not the lockfile's). Such a gate
 * stops `gate-broken` before anything is spent, naming the runner; a runner fetched from inside a
 * package script never starts. The same project running its installed runner through npx is
 * verified. Real npm against a local registry.
 */
import { runAttack, type AttackResult } from './helpers/gate-fixture.js'
import { startRegistry, type LocalRegistry } from './helpers/npm-registry.js'
import { AGENT_NPM, MOCHA_BIN, publishToolchain, toolchainInputs, toolchainProject } from './helpers/toolchain-project.js'

const LONG = 240_000
const FIX = "sed -i 's/a - b/a + b/' src/math.js\n"
let registry: LocalRegistry

beforeAll(async () => {
  registry = await startRegistry()
  publishToolchain(registry)
  registry.publish('quick-runner', '1.0.0', { 'run.js': MOCHA_BIN }, { bin: { 'quick-runner': 'run.js' } })
}, LONG)

afterAll(async () => {
  await registry?.stop()
})

async function run(inputs: Record<string, string>, files: Record<string, string> = {}): Promise<AttackResult> {
  const ws = toolchainProject(registry, 'test', files)
  const { inputs: base, env } = toolchainInputs(registry, inputs)
  return runAttack({ isolation: 'auto', workspace: ws, inputs: base, env, script: `${AGENT_NPM}${FIX}` })
}

const notes = (r: AttackResult): string => `${r.report.notes.join('\n')}\n${r.log}`

test(
  'npx naming a runner the base does not hold: gate-broken before the first call, the runner named',
  async () => {
    const r = await run({ 'gate-command': 'npx quick-runner test' })
    expect(r.report.stopReason).toBe('gate-broken')
    expect(r.report.run?.iterations ?? []).toHaveLength(0)
    expect(notes(r)).toContain("`quick-runner` is not among the base's dependencies")
    expect(notes(r)).toContain('Fix: add quick-runner to devDependencies')
  },
  LONG
)

test(
  'a package script that runs npx for a runner the base does not hold: the runner is never fetched, never verified',
  async () => {
    const pkg = JSON.stringify({ name: 'app', version: '1.0.0', private: true, scripts: { test: 'npx quick-runner test' }, devDependencies: {} }, null, 2)
    const r = await run({ 'gate-command': 'npm test' }, { 'package.json': `${pkg}\n` })
    expect(r.report.stopReason).not.toBe('verified')
    expect(r.report.run?.verifiedCommit ?? null).toBeNull()
  },
  LONG
)

test(
  'control: npx running the installed runner is verified',
  async () => {
    const r = await run({ 'gate-command': 'npx mocha test' })
    expect(r.report.stopReason).toBe('verified')
  },
  LONG
)
