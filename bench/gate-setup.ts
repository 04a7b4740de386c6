// gate-setup that installs the project itself after its pinned requirements (`python -m venv .venv
// && pip install -r requirements.txt && pip install -e .`): the requirements are installed once per
// run and each gate run gets a writable copy of that virtualenv, then installs the project. Paired
// in one run with the same setup run whole for every gate run (a leading `true &&` makes it no
// install loopgate keeps). Real pip against a local PEP 503 index; run alone with
// `npx tsx bench/gate-setup.ts`.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { editableBackend } from '../__tests__/helpers/editable-backend.js'
import { startPackageIndex } from '../__tests__/helpers/pypi-index.js'
import { git, median, printTable, removeDeferred, removeLater, settle, type Figure } from './lib.js'
import { loopgateRun } from './loop.js'

const ITERATIONS = 3
const ROUNDS = 2
const PACKAGES = 8
const PYTHON = process.env.LOOPGATE_TEST_PYTHON ?? '/usr/bin/python3'

function project(): string {
  const ws = mkdtempSync(path.join(os.tmpdir(), 'lgb-setup-'))
  removeLater(ws)
  const names = Array.from({ length: PACKAGES }, (_, i) => `lg-bench-lib${i}`)
  const files: Record<string, string> = {
    '.gitignore': '.venv/\n__pycache__/\nreports/\n',
    'requirements.txt': names.map((n) => `${n}==1.0.0\n`).join(''),
    'pyproject.toml': '[build-system]\nrequires = []\nbuild-backend = "lg_backend"\nbackend-path = ["."]\n\n[project]\nname = "calc"\nversion = "1.0"\n',
    'lg_backend.py': editableBackend('calc', '1.0'),
    'src/calc/__init__.py': 'def add(a, b):\n    return a - b\n',
    'tests/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n'
  }
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true })
    writeFileSync(path.join(ws, rel), text)
  }
  git(ws, ['init', '-q', '-b', 'main'])
  git(ws, ['add', '-A'])
  git(ws, ['commit', '-q', '-m', 'start'])
  return ws
}

const SETUP = `${PYTHON} -m venv --system-site-packages .venv && .venv/bin/pip install --no-compile -r requirements.txt && .venv/bin/pip install --no-compile --no-deps -e .`
const GATE = '.venv/bin/python -m pytest -q -p no:cacheprovider --junitxml=reports/junit.xml'

/** Median gate duration of iterations 2…, in ms. */
async function gateMs(setup: string): Promise<number> {
  const ws = project()
  settle()
  const run = await loopgateRun(
    ws,
    ITERATIONS,
    { 'gate-setup': setup, 'gate-command': GATE, 'gate-report': 'reports/junit.xml', 'agent-env': 'PIP_INDEX_URL' },
    {
      agent: 'echo "# $LOOPGATE_ITERATION" >> NOTES.md'
    }
  )
  return median(run.records.slice(1).map((r) => r.gate?.durationMs ?? 0))
}

export async function benchGateSetup(): Promise<Figure[]> {
  const index = await startPackageIndex()
  const saved = { ...process.env }
  try {
    for (let i = 0; i < PACKAGES; i++) {
      const files: Record<string, string> = {}
      for (let m = 0; m < 40; m++) files[`lg_bench_lib${i}/mod${m}.py`] = `VALUE = ${m}\n`
      files[`lg_bench_lib${i}/__init__.py`] = ''
      index.publish(`lg-bench-lib${i}`, '1.0.0', files)
    }
    Object.assign(process.env, index.env)
    const kept: number[] = []
    const whole: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      kept.push(await gateMs(SETUP))
      whole.push(await gateMs(`true && ${SETUP}`))
    }
    const ratios = kept.map((k, i) => k / whole[i])
    return [
      {
        name: `gate run, setup installs the project after ${PACKAGES} pinned requirements: kept / whole`,
        value: `${Math.round(median(kept))} ms / ${Math.round(median(whole))} ms, ratio ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
        target: '< 1',
        ok: median(ratios) < 1
      }
    ]
  } finally {
    process.env = saved
    await index.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchGateSetup())
  removeDeferred()
}
