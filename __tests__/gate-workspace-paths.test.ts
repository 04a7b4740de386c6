/** Dependency copies never name the workspace: unit tests of the rewrite. */
import { mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { redirectWorkspacePaths } from '../src/gate/toolchain/workspace-paths.js'
import { tempDir } from './helpers/repo.js'

test('a virtualenv copy: .pth, finder and #! lines naming the workspace name the checkout; a sibling path does not match', () => {
  const root = tempDir()
  const ws = path.join(root, 'ws')
  const copy = path.join(root, 'copy')
  const site = path.join(copy, 'lib', 'python3.11', 'site-packages')
  mkdirSync(site, { recursive: true })
  mkdirSync(path.join(copy, 'bin'))
  writeFileSync(path.join(copy, 'pyvenv.cfg'), 'home = /usr/bin\n')
  writeFileSync(path.join(site, 'calc.pth'), `${ws}/src\n${ws}2/src\n`)
  writeFileSync(path.join(site, '__editable___calc_1_0_finder.py'), `MAPPING = {'calc': '${ws}/src/calc'}\n`)
  writeFileSync(path.join(copy, 'bin', 'pytest'), `#!${ws}/.venv/bin/python\nimport pytest\n`)
  writeFileSync(path.join(site, 'binary.py'), Buffer.from(`\0${ws}/src`))
  symlinkSync(`${ws}/vendor/lib`, path.join(site, 'vendored'))
  symlinkSync('../../../bin', path.join(site, 'relative'))
  const checkout = path.join(root, 'gate', 'checkout')
  const rewritten = redirectWorkspacePaths({ copy, name: '.venv', workspace: ws, checkout, virtualenv: true })
  expect(rewritten.sort()).toEqual([
    '.venv/bin/pytest',
    '.venv/lib/python3.11/site-packages/__editable___calc_1_0_finder.py',
    '.venv/lib/python3.11/site-packages/calc.pth',
    '.venv/lib/python3.11/site-packages/vendored'
  ])
  expect(readFileSync(path.join(site, 'calc.pth'), 'utf8')).toBe(`${checkout}/src\n${ws}2/src\n`)
  expect(readFileSync(path.join(site, '__editable___calc_1_0_finder.py'), 'utf8')).toContain(`'${checkout}/src/calc'`)
  expect(readFileSync(path.join(copy, 'bin', 'pytest'), 'utf8')).toMatch(new RegExp(`^#!${checkout}/.venv/bin/python\n`))
  expect(readlinkSync(path.join(site, 'vendored'))).toBe(`${checkout}/vendor/lib`)
  expect(readlinkSync(path.join(site, 'relative'))).toBe('../../../bin')
})

test('node_modules: only absolute links into the workspace are rewritten, never file contents', () => {
  const root = tempDir()
  const ws = path.join(root, 'ws')
  const copy = path.join(root, 'node_modules')
  mkdirSync(path.join(copy, 'dep'), { recursive: true })
  writeFileSync(path.join(copy, 'dep', 'index.js'), `module.exports = '${ws}/x'\n`)
  symlinkSync(`${ws}/packages/local`, path.join(copy, 'local'))
  const rewritten = redirectWorkspacePaths({ copy, name: 'node_modules', workspace: ws, checkout: '/gate/checkout', virtualenv: false })
  expect(rewritten).toEqual(['node_modules/local'])
  expect(readlinkSync(path.join(copy, 'local'))).toBe('/gate/checkout/packages/local')
  expect(readFileSync(path.join(copy, 'dep', 'index.js'), 'utf8')).toContain(`${ws}/x`)
})
