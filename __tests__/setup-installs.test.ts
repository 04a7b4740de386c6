/** Which leading steps of gate-setup are a lockfile-only install, run once per run, and the folders they write. */
import { setupSteps } from '../src/gate/toolchain/setup-installs.js'

const files: Record<string, string> = {
  'requirements.txt': 'lg-lib==1.0.0 \\\n    --hash=sha256:abc\n# a comment\n-r requirements-base.txt\n',
  'requirements-base.txt': 'pluggy>=1.0 ; python_version >= "3.8"\n--index-url https://pypi.org/simple\n',
  'requirements-dev.txt': 'pytest==8.0.0\n-e .\n',
  'requirements-url.txt': 'lib @ https://example.com/lib-1.0.whl\n',
  'requirements-path.txt': './vendor/lib-1.0.whl\n',
  'requirements-archive.txt': 'lib-1.0-py3-none-any.whl\n',
  'requirements-nested.txt': '-r deps/base.txt\n',
  'deps/base.txt': 'lg-lib==1.0.0\n',
  'constraints.txt': 'lg-lib==1.0.0\n',
  'poetry.lock': '# lock\n'
}
const read = (rel: string): string | null => files[rel] ?? null

describe('Python installs of the reference’s pinned requirements', () => {
  test.each([
    ['python -m venv .venv && .venv/bin/pip install -r requirements.txt', ['.venv'], null],
    ['python3 -m venv --system-site-packages venv && venv/bin/python -m pip install -q -r requirements.txt -c constraints.txt', ['venv'], null],
    ['/usr/bin/python3.11 -m venv .venv && .venv/bin/pip install --no-compile --requirement=requirements.txt && pytest --co -q', ['.venv'], 'pytest --co -q'],
    ['poetry config virtualenvs.in-project true && poetry install --no-root --sync', ['.venv'], null],
    ['POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-root -n', ['.venv'], null],
    ['python -m venv .venv && POETRY_VIRTUALENVS_IN_PROJECT=true PYTHON_KEYRING_BACKEND=null poetry install --no-root', ['.venv'], null],
    ['npm ci && python -m venv .venv && .venv/bin/pip install -r requirements.txt && npm run build', ['node_modules', '.venv'], 'npm run build']
  ])('%s', (setup, folders, rest) => {
    const steps = setupSteps(setup, read)
    expect(steps.install).not.toBeNull()
    expect(steps.folders).toEqual(folders)
    expect(steps.rest).toBe(rest)
  })

  test('an activation the install made is kept in front of the rest', () => {
    const steps = setupSteps('python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt && python gen.py', read)
    expect(steps.install).toBe('python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt')
    expect(steps.rest).toBe('. .venv/bin/activate && python gen.py')
  })

  test.each([
    ['the project itself', '.venv/bin/pip install .'],
    ['the project, editable', '.venv/bin/pip install -e .'],
    ['a package named on the command line', '.venv/bin/pip install pytest==8.0.0'],
    ['a requirements file that installs the project', '.venv/bin/pip install -r requirements-dev.txt'],
    ['a requirements file with a URL', '.venv/bin/pip install -r requirements-url.txt'],
    ['a requirements file with a path', '.venv/bin/pip install -r requirements-path.txt'],
    ['a nested file that is no dependency file', '.venv/bin/pip install -r requirements-nested.txt'],
    ['a requirements file the checkout does not have', '.venv/bin/pip install -r requirements-missing.txt'],
    ['an archive in the tree named like a requirement', '.venv/bin/pip install -r requirements-archive.txt'],
    ['the project, editable, its value attached', '.venv/bin/pip install -r requirements.txt -e.'],
    ['the project, editable, the option abbreviated', '.venv/bin/pip install -r requirements.txt --edit .'],
    ['pip into a target folder', '.venv/bin/pip install -r requirements.txt --target lib'],
    ['find-links in the tree', '.venv/bin/pip install -r requirements.txt -f ./wheels'],
    ['the project after an activation', 'source .venv/bin/activate && pip install .']
  ])('only the virtualenv is an install, the rest writes into it: %s', (_what, rest) => {
    const { project: _, ...steps } = setupSteps(`python -m venv .venv && ${rest}`, read)
    expect(steps).toEqual({ install: 'python -m venv .venv', rest, folders: ['.venv'], restWrites: true })
  })

  test.each([
    ['.venv/bin/pip install -e .', null],
    [".venv/bin/pip install --no-compile --no-deps -e '.[test,docs]' && pytest --co -q", 'pytest --co -q'],
    ['.venv/bin/python -m pip install -q --editable=./ && .venv/bin/pip install -e .', '.venv/bin/pip install -e .'],
    ['.venv/bin/pip install -r requirements.txt && .venv/bin/pip install --editable ".[test]"', null]
  ])("the project's own editable install right after the virtualenv's: %s", (tail, rest) => {
    const steps = setupSteps(`python -m venv .venv && ${tail}`, read)
    expect(steps.project?.rest).toBe(rest)
    expect(steps.project?.restWrites).toBe(rest !== null && rest.includes('pip'))
  })

  test("Poetry's install of the project, and pip's after an activation, keep the activation for the rest", () => {
    const poetry = setupSteps('poetry config virtualenvs.in-project true && poetry install --no-root && poetry install --only-root', read)
    expect(poetry.project).toEqual({ step: 'poetry install --only-root', rest: null, restWrites: false })
    expect(
      setupSteps('POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-root && POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --sync', read).project?.step
    ).toBe('POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --sync')
    // The variable is its own command's: the second install goes to Poetry's own virtualenv.
    expect(setupSteps('POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-root && poetry install --sync', read).project).toBeUndefined()
    const active = setupSteps('python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt && pip install -e . && python gen.py', read)
    expect(active.project).toEqual({ step: 'pip install -e .', rest: '. .venv/bin/activate && python gen.py', restWrites: false })
  })

  test.each([
    ['a copy of the project, not editable', '.venv/bin/pip install .'],
    ['a copy of the project with extras', ".venv/bin/pip install '.[test]'"],
    ['another folder, editable', '.venv/bin/pip install -e ./lib'],
    ['the project and a package named beside it', '.venv/bin/pip install -e . pytest'],
    ['two editable installs', '.venv/bin/pip install -e . -e .'],
    ['a quote around more than the extras', `.venv/bin/pip install -e '.[test]' '--target=lib'`],
    ['the option abbreviated', '.venv/bin/pip install --edit .'],
    ['pip into another virtualenv', 'venv/bin/pip install -e .'],
    ['after a step that is no install', 'true && .venv/bin/pip install -e .']
  ])('no kept project install: %s', (_what, tail) => {
    expect(setupSteps(`python -m venv .venv && ${tail}`, read).project).toBeUndefined()
  })

  test('the project installed after the pinned requirements: those are the install, kept for a rest that writes into the virtualenv', () => {
    const { project: _, ...steps } = setupSteps(
      'python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt && pip install -e . && python gen.py',
      read
    )
    expect(steps).toEqual({
      install: 'python -m venv .venv && . .venv/bin/activate && pip install -r requirements.txt',
      rest: '. .venv/bin/activate && pip install -e . && python gen.py',
      folders: ['.venv'],
      restWrites: true
    })
    expect(setupSteps('poetry config virtualenvs.in-project true && poetry install --no-root && poetry install --only-root', read).restWrites).toBe(true)
  })

  test.each([
    ['pip outside any virtualenv', 'pip install -r requirements.txt'],
    ['Poetry told to use another virtualenv', 'VIRTUAL_ENV=/opt/env POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-root'],
    ['Poetry installing the project', 'poetry config virtualenvs.in-project true && poetry install'],
    ['Poetry without an in-project virtualenv', 'poetry install --no-root']
  ])('not an install: %s', (_what, setup) => {
    expect(setupSteps(setup, read)).toEqual({ install: null, rest: setup, folders: [], restWrites: false })
  })

  test('Poetry in-project from poetry.toml', () => {
    const withToml = (rel: string): string | null => (rel === 'poetry.toml' ? '[virtualenvs]\nin-project = true\n' : read(rel))
    expect(setupSteps('poetry install --no-root', withToml).folders).toEqual(['.venv'])
  })
})

describe('Node installs', () => {
  test('npm ci and a build', () => {
    expect(setupSteps('npm ci --no-audit && node scripts/build.mjs')).toEqual({
      install: 'npm ci --no-audit',
      rest: 'node scripts/build.mjs',
      folders: ['node_modules'],
      restWrites: false
    })
    expect(setupSteps('npm ci && pip install -e .').restWrites).toBe(false)
    expect(setupSteps('npm ci && npm run build').restWrites).toBe(false)
    expect(setupSteps('npm ci && npm install --no-save left-pad && npm run build').restWrites).toBe(false)
  })
  test('a package name is no install of the lockfile', () => {
    expect(setupSteps('npm install left-pad').install).toBeNull()
  })
})
