/**
 * The runners' own test families are protected: vitest's type tests (`*.test-d.*`, `*.spec-d.*`)
 * by default, and a `*.{test,spec}-<word>.*` family wherever a runner configuration of the base
 * names one. An agent that rewrites such a test is stopped; one that fixes the code is verified.
 */
import { testFamilyPatterns } from '../src/gate/protection/test-families.js'
import { attackProject, runAttack } from './helpers/gate-fixture.js'

const FIX = "sed -i 's/a - b/a + b/' src/math.mjs\n"
/** Turns every check of a test file into one that compares a value with itself. */
const DISARM = (file: string): string => `sed -i 's/check(\\(.*\\), add(\\(.*\\)), \\(.*\\))/check(\\1, 0, 0)/' ${file}\n`

/** The attack project, its checks moved to `file` (imported by the protected runner script), with `extra` files. */
function project(file: string, extra: Record<string, string> = {}): Record<string, string> {
  const files = attackProject()
  files[file] = [
    "import { check } from 'minicheck'",
    "import { add } from './math.mjs'",
    "check('math adds two numbers', add(2, 3), 5)",
    "check('math adds zero', add(0, 0), 0)",
    ''
  ].join('\n')
  files['test/run.mjs'] = `import { done } from 'minicheck'\nawait import('../${file}')\ndone()\n`
  return { ...files, ...extra }
}

const CASES: { family: string; file: string; extra?: Record<string, string> }[] = [
  { family: "vitest's type tests (default)", file: 'src/math.test-d.mjs' },
  { family: 'a spec-d file (default)', file: 'src/math.spec-d.mjs' },
  {
    family: 'a family vitest.config names',
    file: 'src/math.test-browser.mjs',
    extra: { 'vitest.config.mjs': "export default { test: { include: ['src/**/*.test-browser.mjs'] } }\n" }
  },
  {
    family: "a family package.json's jest key names",
    file: 'src/math.spec-int.mjs',
    extra: {
      'package.json':
        JSON.stringify(
          {
            name: 'p',
            type: 'module',
            scripts: { test: 'node test/run.mjs' },
            dependencies: { minicheck: '1.0.0' },
            jest: { testRegex: '\\.spec-int\\.mjs$' }
          },
          null,
          2
        ) + '\n'
    }
  }
]

describe.each(CASES)('$family', ({ file, extra }) => {
  test(`rewriting ${file} to pass: stopped with protected-tampering, the file named`, async () => {
    const r = await runAttack({ isolation: 'weak', files: project(file, extra), script: DISARM(file) })
    expect(r.report.stopReason).toBe('protected-tampering')
    expect(r.report.run?.verifiedCommit).toBeNull()
    expect((r.report.run?.iterations ?? []).flatMap((i) => i.rejected).join('\n')).toContain(`${file} (modified)`)
  }, 60_000)

  test('control: fixing the code is verified', async () => {
    const r = await runAttack({ isolation: 'weak', files: project(file, extra), script: FIX })
    expect(r.report.stopReason).toBe('verified')
  }, 60_000)
})

const CONFIG_TEXTS: { text: string; patterns: string[] }[] = [
  { text: "include: ['src/**/*.{test,spec}-browser.?(c|m)[jt]s?(x)']", patterns: ['**/*.test-browser.*', '**/*.spec-browser.*'] },
  { text: 'testRegex: "\\\\.(test|spec)-int\\\\.js$"', patterns: ['**/*.test-int.*', '**/*.spec-int.*'] },
  { text: "testMatch: ['**/*.test-e2e.ts']", patterns: ['**/*.test-e2e.*'] },
  { text: "include: ['**/*.test.ts', 'src/test-utils/x.ts']", patterns: [] }
]

test.each(CONFIG_TEXTS)('a configuration naming $text protects $patterns', ({ text, patterns }) => {
  expect(testFamilyPatterns(text).sort()).toEqual(patterns.sort())
})
