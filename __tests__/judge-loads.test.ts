import { judgeImports, resolutionTampering } from '../src/gate/protection/judge-loads.js'

/** Which imports load the judge, and which new paths would stand in for what it loads. */

const IMPORTS: { file: string; text: string; names: string[] }[] = [
  { file: 'src/a.ts', text: "import { expect } from 'vitest'\n", names: ['vitest'] },
  { file: 'src/a.mjs', text: "import chai from 'chai'\nimport x from './chai.js'\n", names: ['chai'] },
  { file: 'src/a.cjs', text: "const { describe } = require('mocha')\n", names: ['mocha'] },
  { file: 'src/a.js', text: "await import('node:test')\n", names: ['node:test'] },
  { file: 'src/a.ts', text: "import { jest } from '@jest/globals'\n", names: ['@jest/globals'] },
  { file: 'src/a.ts', text: "import circus from 'jest-circus/runner'\n", names: ['jest-circus'] },
  { file: 'src/a.ts', text: "import assert from 'node:assert'\nimport test from 'testing-library'\n", names: [] },
  { file: 'lib/a.py', text: 'import os, pytest\n', names: ['pytest'] },
  { file: 'lib/a.py', text: 'from _pytest.python import Function\n', names: ['_pytest'] },
  { file: 'lib/a.py', text: 'from unittest import mock\n', names: ['unittest'] },
  { file: 'lib/a.py', text: "mod = __import__('pluggy')\n", names: ['pluggy'] },
  { file: 'lib/a.py', text: 'import json\nfrom .pytest_compat import x\n', names: [] }
]

test.each(IMPORTS)('$file: $text', ({ file, text, names }) => {
  expect(judgeImports(file, text).sort()).toEqual(names.sort())
})

const PATHS: { path: string; refused: boolean; inBase?: boolean }[] = [
  { path: 'pytest.py', refused: true },
  { path: 'src/_pytest/__init__.py', refused: true },
  { path: 'json/__init__.py', refused: true },
  { path: 'pluggy.py', refused: true },
  { path: 'x-1.0.dist-info/entry_points.txt', refused: true },
  { path: 'lib/deep/x.egg-info/PKG-INFO', refused: true },
  { path: 'lib/x.egg-link', refused: true },
  { path: 'site/hook.pth', refused: true },
  { path: 'json/__init__.py', refused: false, inBase: true },
  { path: 'helpers.py', refused: false },
  { path: 'lib/json/__init__.py', refused: false },
  { path: 'email/template.html', refused: false },
  { path: 'src/myproject/json.py', refused: false }
]

test.each(PATHS)('$path (in the base: $inBase) refused: $refused', ({ path, refused, inBase = false }) => {
  const found = resolutionTampering([path], () => inBase)
  expect(found.length > 0).toBe(refused)
  if (refused) expect(found[0].path).toBe(path)
})
