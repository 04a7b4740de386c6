import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { upgradeLoop } from './helpers/upgrade-loop.js'
import { hasTool, needs, TEST_PYTHON } from './helpers/needs-tools.js'
import { startPackageIndex, type PackageIndex } from './helpers/pypi-index.js'
import { makeRepo, sh, sharedTempDir } from './helpers/repo.js'

const LONG = 300_000

let index: PackageIndex

beforeAll(async () => {
  if (!hasTool('python3')) return
  index = await startPackageIndex()
  index.publish('lg-mathlib', '1.0.0', { 'lg_mathlib/__init__.py': 'def add(a, b):\n    return a + b\n' })
  index.publish('lg-mathlib', '2.0.0', { 'lg_mathlib/__init__.py': 'def plus(a, b):\n    return a + b\n' })
}, LONG)

afterAll(async () => {
  await index?.stop()
})

/** The same fix-forward rule on a requirements.txt pin: the bump's data is the ecosystem's, the guard is one. */
describe('task: dependency-upgrade (pip): the pinned bump is fixed', () => {
  needs('python3', 'pip', 'venv', 'pytest').it(
    'the pin put back to the old version is rejected and undone, the next prompt says why; twice is protected-tampering',
    async () => {
      const ws = makeRepo({
        'requirements.txt': '# runtime\nlg-mathlib==1.0.0  # math\n',
        '.gitignore': '.venv/\n__pycache__/\n',
        'calc.py': 'from lg_mathlib import add\n\n\ndef total(xs):\n    result = 0\n    for x in xs:\n        result = add(result, x)\n    return result\n',
        'tests/test_calc.py': 'from calc import total\n\n\ndef test_total_adds_the_numbers():\n    assert total([1, 2, 3]) == 6\n'
      })
      const start = sh(ws, ['rev-parse', 'HEAD']).trim()
      const shared = sharedTempDir()
      const script = [
        `n=$(( $(cat ${shared}/calls 2>/dev/null | wc -l) + 1 ))`,
        `echo call >> ${shared}/calls`,
        `cp "$LOOPGATE_PROMPT_FILE" ${shared}/prompt-$n.txt`,
        "sed -i 's/lg-mathlib==2.0.0/lg-mathlib==1.0.0/' requirements.txt",
        ''
      ].join('\n')
      writeFileSync(path.join(shared, 'agent.sh'), script, { mode: 0o755 })
      const { report } = await upgradeLoop(
        ws,
        { ...process.env, ...index.env },
        {
          'loop-id': 'pydeps',
          'gate-setup': `${TEST_PYTHON} -m venv --system-site-packages .venv && .venv/bin/python -m pip install -q -r requirements.txt`,
          'gate-command': '.venv/bin/python -m pytest -q -p no:cacheprovider',
          'agent-env': 'PIP_INDEX_URL',
          'allow-major': 'true',
          'max-iterations': '3'
        }
      ).run({ 'agent-command': `sh ${shared}/agent.sh` })

      expect(report.stopReason).toBe('protected-tampering')
      expect(report.run?.iterations.map((i) => i.tampered)).toEqual([true, true])
      expect(readFileSync(path.join(shared, 'prompt-2.txt'), 'utf8')).toMatch(
        /requirements\.txt \(lg-mathlib changed: lg-mathlib is loopgate's own bump to 2\.0\.0 in this run and is fixed: fix the code forward/
      )
      const bump = sh(ws, ['rev-list', '--reverse', `${start}..HEAD`])
        .trim()
        .split('\n')[0]
      expect(sh(ws, ['show', 'HEAD:requirements.txt'])).toBe('# runtime\nlg-mathlib==2.0.0  # math\n')
      expect(sh(ws, ['diff', '--name-only', bump, 'HEAD']).trim()).toBe('')
    },
    LONG
  )
})
