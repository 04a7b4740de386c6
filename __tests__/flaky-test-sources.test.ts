import { GitRepository } from '../src/git/repository.js'
import { testFileOf, testSources } from '../src/gate/test-sources.js'
import { makeRepo, sh } from './helpers/repo.js'

/** Whether a change touches a failing test is decided by paths: its test file and what that imports, never by words in its id or message. */

const FILES: Record<string, string> = {
  'arith.py': 'def add(a, b):\n    return a + b\n',
  'pkg/__init__.py': '',
  'pkg/core.py': 'from .util import helper\n',
  'pkg/util.py': 'import arith\n',
  'src/lib/mod.py': 'VALUE = 1\n',
  'tests/test_ops.py': 'from arith import add\n',
  'tests/test_pkg.py': 'from pkg.core import helper\nimport json\n',
  'tests/test_src.py': 'from lib import mod\n',
  'tests/test_calc_words.py': 'import json\n\n# arith.py is named here, in words only\n',
  'src/math.mjs': "export { double } from './double.js'\n",
  'src/double.js': 'module.exports = (x) => x * 2\n',
  'test/math.test.mjs': "import { double } from '../src/math.mjs'\nconst fs = require('fs')\n"
}

const CASES: { id: string; message?: string; file: string | null; reaches: string[]; misses?: string[] }[] = [
  { id: 'tests.test_ops › test_mul', file: 'tests/test_ops.py', reaches: ['arith.py'] },
  { id: 'tests.test_pkg › test_helper', file: 'tests/test_pkg.py', reaches: ['pkg/__init__.py', 'pkg/core.py', 'pkg/util.py', 'arith.py'] },
  { id: 'tests/test_src.py::test_mod', file: 'tests/test_src.py', reaches: ['src/lib/mod.py'] },
  { id: 'tests.test_calc_words › test_x', file: 'tests/test_calc_words.py', reaches: [], misses: ['arith.py'] },
  { id: 'test/math.test.mjs › doubles', file: 'test/math.test.mjs', reaches: ['src/math.mjs', 'src/double.js'] },
  { id: 'math doubles', file: null, reaches: [] },
  { id: 'math doubles', message: 'expected 4, got 5\nat test/math.test.mjs:2', file: null, reaches: ['test/math.test.mjs', 'src/math.mjs', 'src/double.js'] }
]

describe('the files a failing test depends on', () => {
  const ws = makeRepo(FILES)
  const commit = sh(ws, ['rev-parse', 'HEAD']).trim()

  test.each(CASES)('$id $message', async ({ id, message = '', file, reaches, misses = [] }) => {
    expect(testFileOf(id, (f) => f in FILES)).toBe(file)
    const sources = await testSources(GitRepository.plain(ws), commit, [{ id, message }])
    if (reaches.length === 0 && file === null) return expect(sources.has(id)).toBe(false)
    expect(sources.get(id)).toEqual(expect.arrayContaining([...(file ? [file] : []), ...reaches]))
    for (const m of misses) expect(sources.get(id)).not.toContain(m)
  })
})
