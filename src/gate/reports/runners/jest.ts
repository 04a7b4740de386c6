import { failureText } from '../failure-text.js'
import { indentOf, type ConsoleParser } from '../console-parser.js'

const FILE = /^\s?(?:PASS|FAIL)\s+(\S+)/
const BULLET = /^(\s*)● (\S.*)$/
const END = /^(?:Test Suites:|Summary of all failing tests)/

/** jest's default reporter: `● describe › test` blocks under each `FAIL file` line. */
export const jestParser: ConsoleParser = {
  runner: 'jest',
  recognises: (text) => /^Test Suites:[ \t]+\d+/m.test(text) || (/^[ \t]*● \S/m.test(text) && /^(?:PASS|FAIL)[ \t]+\S/m.test(text)),
  read(lines, failures) {
    let file = ''
    for (let i = 0; i < lines.length; i++) {
      const f = FILE.exec(lines[i])
      if (f) {
        file = f[1]
        continue
      }
      const b = BULLET.exec(lines[i])
      const title = b?.[2].trimEnd()
      if (!b || !title || title === 'Console') continue
      const block: string[] = []
      let j = i + 1
      for (; j < lines.length; j++) {
        const l = lines[j]
        if (FILE.test(l) || END.test(l) || (BULLET.test(l) && indentOf(l) <= b[1].length)) break
        block.push(l)
      }
      const id = title === 'Test suite failed to run' ? file || title : file ? `${file} › ${title}` : title
      failures.add(id, failureText(block.join('\n')))
      i = j - 1
    }
  }
}
