/** Which gate commands get loopgate's report option, and where it goes. */
import { withReportChannel } from '../src/gate/reports/report-channel.js'
import { writerModule } from '../src/gate/reports/result-writer.js'
import { runnersInCommand } from '../src/gate/reports/command-runners.js'

const FILE = '/gate/report-1/report.xml'

test.each([
  ['pytest -q tests', 'pytest', `pytest -q tests --junitxml='${FILE}' -o junit_family=xunit2`],
  ['/usr/bin/python3 -m pytest -p no:cacheprovider', 'pytest', `/usr/bin/python3 -m pytest -p no:cacheprovider --junitxml='${FILE}' -o junit_family=xunit2`],
  ['CI=1 .venv/bin/python -m pytest', 'pytest', `CI=1 .venv/bin/python -m pytest --junitxml='${FILE}' -o junit_family=xunit2`],
  ['npx jest --ci', 'jest', `npx jest --ci --json --outputFile='${FILE}'`],
  ['node node_modules/jest/bin/jest.js --ci', 'jest', `node node_modules/jest/bin/jest.js --ci --json --outputFile='${FILE}'`],
  ['npx vitest run', 'vitest', `npx vitest run --reporter=default --reporter=json --outputFile.json='${FILE}'`],
  ['node_modules/.bin/mocha "test/*.spec.js"', 'mocha', `node_modules/.bin/mocha "test/*.spec.js" --reporter=xunit --reporter-option=output='${FILE}'`],
  [
    'node --test test/',
    'node:test',
    `node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination='${FILE}' test/`
  ]
])('%s: %s gets the option', (command, runner, rewritten) => {
  expect(withReportChannel(command, FILE)).toEqual({ runner, command: rewritten })
})

test.each([
  'npm test', // no script known
  'pytest -q && echo done',
  'cd app; pytest',
  'pytest | tee out.txt',
  'pytest > out.txt',
  'pytest $ARGS',
  'node -e "console.log(1)"',
  'node --test --test-reporter=tap',
  'node test/run.mjs',
  'go test ./...',
  'make check'
])('%s: no option', (command) => {
  expect(withReportChannel(command, FILE)).toBeNull()
})

test('npm scripts: a simple known runner gets the option after `--`; anything else none', () => {
  expect(withReportChannel('npm test --silent', FILE, { test: 'vitest run' })).toEqual({
    runner: 'vitest',
    command: `npm test --silent -- --reporter=default --reporter=json --outputFile.json='${FILE}'`
  })
  expect(withReportChannel('npm run unit', FILE, { unit: 'jest --ci' })?.command).toBe(`npm run unit -- --json --outputFile='${FILE}'`)
  expect(withReportChannel('npm test', FILE, { test: 'node test/run.mjs' })).toBeNull()
  // npm would read arguments passed on through a script that calls another as its own
  expect(withReportChannel('npm test', FILE, { test: 'npm run unit', unit: 'jest --ci' })).toBeNull()
})

const NODE_OPTIONS = `--test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination="${FILE}"`
const PYTEST_ADDOPTS = `--junitxml='${FILE}' -o junit_family=xunit2`
const VITEST = `--reporter=default --reporter=json --outputFile.json='${FILE}'`
const JEST = `--json --outputFile='${FILE}'`
const MOCHA = `--reporter=xunit --reporter-option=output='${FILE}'`

/** How each manager runs the script named `unit`, and how it passes arguments on to it. */
const MANAGERS: [string, string][] = [
  ['npm run unit', '-- '],
  ['pnpm run unit', ''],
  ['pnpm unit', ''],
  ['yarn unit', ''],
  ['yarn run unit', '']
]

/** A script, and what loopgate adds: arguments after it, or options in the environment. */
const SCRIPTS: [string, { runner: string; args?: string; env?: Record<string, string> } | null][] = [
  ['vitest run', { runner: 'vitest', args: VITEST }],
  ['jest --ci', { runner: 'jest', args: JEST }],
  ['mocha test/', { runner: 'mocha', args: MOCHA }],
  ['node --test test/', { runner: 'node:test', env: { NODE_OPTIONS } }],
  ['node --test --experimental-test-coverage test/*.test.js', { runner: 'node:test', env: { NODE_OPTIONS } }],
  ['tsc -p . && node --test dist/test', { runner: 'node:test', env: { NODE_OPTIONS } }],
  ['pytest tests/', { runner: 'pytest', env: { PYTEST_ADDOPTS } }],
  ['cd py && python -m pytest -q', { runner: 'pytest', env: { PYTEST_ADDOPTS } }],
  ['tsc && jest --ci', { runner: 'jest', args: JEST }],
  ['rm -rf coverage; pnpm vitest run', { runner: 'vitest', args: VITEST }],
  ['jest && echo done', null],
  ['jest | tee out.txt', null],
  ['jest && node --test', null],
  ['node test/run.mjs', null],
  ['python -m unittest', null],
  ['make test', null]
]

describe.each(MANAGERS)('%s', (command, passes) => {
  test.each(SCRIPTS)('script %s', (script, expected) => {
    const channel = withReportChannel(command, FILE, { unit: script })
    if (!expected) return expect(channel).toBeNull()
    expect(channel?.runner).toBe(expected.runner)
    expect(channel?.command).toBe(expected.args ? `${command} ${passes}${expected.args}` : command)
    expect(channel?.env).toEqual(expected.env)
  })
})

test.each([
  ['npm test', { test: 'npm run unit', unit: 'node --test test/' }, 'node:test'],
  ['pnpm test', { test: 'pnpm run build && pnpm run unit', build: 'tsc', unit: 'pytest' }, 'pytest'],
  ['yarn test', { test: 'yarn unit', unit: 'node --test' }, 'node:test']
])('%s through a script that calls another: the environment option', (command, scripts, runner) => {
  expect(withReportChannel(command, FILE, scripts)).toMatchObject({ runner, command, env: expect.any(Object) })
})

test.each([
  ['pnpm vitest run', 'vitest', VITEST],
  ['pnpm exec jest --ci', 'jest', JEST],
  ['yarn vitest run', 'vitest', VITEST],
  ['yarn exec mocha', 'mocha', MOCHA],
  ['npm exec -- jest', 'jest', JEST],
  ['npx --no-install vitest run', 'vitest', VITEST]
])('%s: the program from node_modules/.bin gets the option', (command, runner, args) => {
  expect(withReportChannel(command, FILE, {})).toEqual({ runner, command: `${command} ${args}` })
})

test("pnpm and yarn run a script of a program's name when there is one", () => {
  expect(withReportChannel('pnpm vitest', FILE, { vitest: 'node --test' })).toMatchObject({ runner: 'node:test', env: { NODE_OPTIONS } })
  expect(withReportChannel('pnpm -r test', FILE, { test: 'vitest run' })).toBeNull()
})

test("unittest and Django run through loopgate's result writer, named after the report folder", () => {
  const unittest = withReportChannel('CI=1 python3 -m unittest discover -s tests -v', FILE)!
  expect(unittest.runner).toBe('unittest')
  expect(unittest.writer).toBe('unittest')
  expect(unittest.command).toBe(
    `CI=1 python3 -c 'import runpy; runpy.run_path("/gate/report-1/${writerModule(FILE)}.py", run_name="__main__")' discover -s tests -v`
  )
  const django = withReportChannel('.venv/bin/python manage.py test polls --parallel 1', FILE)!
  expect(django).toMatchObject({ runner: 'django', writer: 'django', env: { PYTHONPATH: '/gate/report-1' } })
  expect(django.command).toBe(`.venv/bin/python manage.py test --testrunner=${writerModule(FILE)}.LoopgateRunner polls --parallel 1`)
  expect(writerModule(FILE)).not.toBe(writerModule('/gate/report-2/report.xml'))
})

test.each([
  ['cd app && pytest -q', {}, ['pytest']],
  ['npm test', { test: 'jest && echo done' }, ['jest']],
  ['yarn test', { test: 'node --test test/ | tee out' }, ['node:test']],
  ['bash -c "python -m unittest"', {}, ['unittest']],
  ['node --test --test-reporter=tap', {}, ['node:test']],
  ['make test', {}, []],
  ['node test/run.mjs', {}, []],
  ['go test ./...', {}, []]
])('%s starts %j', (command, scripts, runners) => {
  expect(runnersInCommand(command, scripts)).toEqual(runners)
})

test('a report path with a quote stays one word', () => {
  expect(withReportChannel('pytest', "/tmp/it's/r.xml")?.command).toBe(`pytest --junitxml='/tmp/it'\\''s/r.xml' -o junit_family=xunit2`)
})
