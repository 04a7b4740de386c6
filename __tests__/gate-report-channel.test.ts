/** Which gate commands get loopgate's report option, and where it goes. */
import { withReportChannel } from '../src/gate/reports/report-channel.js'

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
  expect(withReportChannel('npm test', FILE, { test: 'node --test test/' })).toBeNull()
  expect(withReportChannel('npm test', FILE, { test: 'tsc && jest' })).toBeNull()
  expect(withReportChannel('npm test', FILE, { test: 'node test/run.mjs' })).toBeNull()
})

test('a report path with a quote stays one word', () => {
  expect(withReportChannel('pytest', "/tmp/it's/r.xml")?.command).toBe(`pytest --junitxml='/tmp/it'\\''s/r.xml' -o junit_family=xunit2`)
})
