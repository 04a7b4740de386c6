/**
 * gate-setup's install (`npm ci`) runs once per run, on the baseline, into the pristine copy;
 * every later gate run on the same dependency files gets that install read-only, while the build
 * step after it still runs for each candidate. Real npm, no network (a lockfile without packages).
 */
import { buggyProject } from './helpers/repo.js'
import { runAttack } from './helpers/gate-fixture.js'
import { needs } from './helpers/needs-tools.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"

function project(): Record<string, string> {
  const manifest = {
    name: 'p',
    version: '1.0.0',
    type: 'module',
    scripts: { postinstall: "node -e \"require('fs').appendFileSync('node_modules/.installs', 'x')\"" }
  }
  const lock = { name: 'p', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'p', version: '1.0.0', hasInstallScript: true } } }
  return {
    ...buggyProject(),
    '.gitignore': 'node_modules/\n',
    'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify(lock, null, 2)}\n`,
    'scripts/build.mjs': "import { appendFileSync } from 'node:fs'\nappendFileSync('build/built.txt', 'b')\n"
  }
}

needs('second-user').test('the install runs on the baseline only; a candidate gets it read-only and its own build', async () => {
  const gateCommand = [
    'echo "installs=$(cat node_modules/.installs) built=$(cat build/built.txt)"',
    '{ echo y > node_modules/.planted && echo NM-WRITTEN; } 2>/dev/null || echo NM-REFUSED',
    'node test/run.mjs'
  ].join('; ')
  const r = await runAttack({
    isolation: 'auto',
    agentUser: `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-once`,
    files: project(),
    inputs: { 'gate-setup': 'npm ci --no-audit --no-fund && node scripts/build.mjs', 'gate-command': gateCommand },
    script: FIX
  })
  expect(r.report.stopReason).toBe('verified')
  const out = r.report.run?.iterations[0].gate?.outputTail ?? ''
  expect(out).toContain('installs=x built=b')
  expect(out).toContain('NM-REFUSED')
  expect(out).not.toContain('postinstall')
})

needs('second-user').test('a later gate-setup step that installs into the kept folder stops gate-broken on the base, naming why', async () => {
  const files = { ...project(), 'vendor/extra/package.json': '{ "name": "extra", "version": "1.0.0" }\n', 'vendor/extra/index.js': 'module.exports = 1\n' }
  const r = await runAttack({
    isolation: 'auto',
    agentUser: `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-once`,
    files,
    inputs: { 'gate-setup': 'npm ci --no-audit --no-fund && npm install --no-save --no-audit --no-fund ./vendor/extra', 'gate-command': 'node test/run.mjs' },
    script: FIX
  })
  // Every candidate would get node_modules read-only: the base shows it before any call.
  expect(r.report.stopReason).toBe('gate-broken')
  expect(r.report.run?.iterations ?? []).toHaveLength(0)
  const why = r.report.notes.join('\n')
  expect(why).toContain('gate-setup failed on the base')
  expect(why).toContain('its install (`npm ci --no-audit --no-fund`) runs once and each gate run gets `node_modules` read-only')
  expect(why).toContain('Change `gate-setup`')
})

needs('second-user').test(
  "an install that writes outside its dependency folders (a postinstall building the project's own files) runs whole in each gate run's layer, and the fix is verified",
  async () => {
    const files = project()
    const manifest = JSON.parse(files['package.json']) as { scripts: Record<string, string> }
    manifest.scripts.postinstall =
      "node -e \"require('fs').mkdirSync('generated', { recursive: true }); require('fs').writeFileSync('generated/version.txt', '1')\""
    const r = await runAttack({
      isolation: 'auto',
      agentUser: `loopgate-agent${process.env.LOOPGATE_TEST_NS ?? ''}-once`,
      files: { ...files, 'package.json': `${JSON.stringify(manifest, null, 2)}\n` },
      inputs: { 'gate-setup': 'npm ci --no-audit --no-fund', 'gate-command': 'test -s generated/version.txt && node test/run.mjs' },
      script: FIX
    })
    expect(r.report.stopReason).toBe('verified')
    expect(r.report.notes.join('\n')).toContain(
      "gate-setup's install (`npm ci --no-audit --no-fund`) failed where it is kept, on the checkout itself, and passed in the gate run's write layer"
    )
  }
)
