import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

const SRC = path.join(import.meta.dirname, '..', 'src')

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sources(full)
    return e.name.endsWith('.ts') ? [full] : []
  })
}

const SPAWNS_GIT = /\b(?:execFile|execFileSync|spawn|spawnSync|exec|execSync)\(\s*['"`]git\b/

describe('only src/git/ spawns git', () => {
  const outside = sources(SRC).filter((file) => {
    const [top] = path.relative(SRC, file).split(path.sep)
    return top !== 'git'
  })

  test('the scan sees the source tree', () => {
    expect(outside.length).toBeGreaterThan(50)
    expect(SPAWNS_GIT.test("execFile(\n  'git', args)")).toBe(true)
  })

  test('no file outside src/git/ starts a git process or builds a git command line', () => {
    const offenders = outside.filter((file) => {
      const text = readFileSync(file, 'utf8')
      return SPAWNS_GIT.test(text) || /\bgitArgs\(|\bcommandLine\(/.test(text)
    })
    expect(offenders.map((f) => path.relative(SRC, f))).toEqual([])
  })
})
