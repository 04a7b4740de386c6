import { failureText } from '../failure-text.js'
import { indentOf, type ConsoleParser } from './types.js'

const FILE = /^\s?(?:PASS|FAIL)\s+(\S+)/
const BULLET = /^(\s*)● (.+?)\s*$/
const END = /^(?:Test Suites:|Summary of all failing tests)/

/** jest's default reporter: `● describe › test` blocks under each `FAIL file` line. */
export const jestParser: ConsoleParser = {
  runner: 'jest',
  recognises: (text) => /^Test Suites:\s+\d+/m.test(text) || (/^\s*● \S/m.test(text) && /^(?:PASS|FAIL)\s+\S/m.test(text)),
  read(lines, failures) {
    let file = ''
    for (let i = 0; i < lines.length; i++) {
      const f = FILE.exec(lines[i])
      if (f) {
        file = f[1]
        continue
      }
      const b = BULLET.exec(lines[i])
      if (!b || b[2] === 'Console') continue
      const block: string[] = []
      let j = i + 1
      for (; j < lines.length; j++) {
        const l = lines[j]
        if (FILE.test(l) || END.test(l) || (BULLET.test(l) && indentOf(l) <= b[1].length)) break
        block.push(l)
      }
      const id = b[2] === 'Test suite failed to run' ? file || b[2] : file ? `${file} › ${b[2]}` : b[2]
      failures.add(id, failureText(block.join('\n')))
      i = j - 1
    }
  }
}
