import { failureEvidence } from '../src/loop/failure-evidence.js'
import type { RunOutcome } from '../src/loop/engine-types.js'
import { buildPrompt } from '../src/loop/prompt.js'
import type { GateVerdict } from '../src/loop/engine-types.js'
import { failingTestsSection } from '../src/report/markdown.js'

const DIFF =
  'AssertionError: expected { admin: false } to deeply equal { admin: true }\n\n- Expected\n+ Received\n\n  {\n-   "admin": true,\n+   "admin": false,\n  }'

function verdict(failures: GateVerdict['failures'], outputTail = ''): GateVerdict {
  return { passed: false, reason: 'exit 1', exitCode: 1, timedOut: false, failures, fingerprint: 'abc123abc123', outputTail, durationMs: 5 }
}

describe('gate evidence in the next prompt', () => {
  test('each failure keeps its message and diff, indented under its item', () => {
    const evidence = failureEvidence(
      verdict([
        { id: 'test/a.test.js > user > is admin', message: DIFF },
        { id: 'adds', message: 'expected 5, got -1' }
      ])
    )
    const prompt = buildPrompt({ task: 'fix it', progress: '', evidence, iteration: 2, maxIterations: 5, progressFile: 'progress.md' })
    expect(prompt).toContain('- the protected gate failed: exit 1 (fingerprint abc123abc123)')
    expect(prompt).toContain(
      '- failing: test/a.test.js > user > is admin\n  ```\n  AssertionError: expected { admin: false } to deeply equal { admin: true }\n  \n  - Expected\n  + Received'
    )
    expect(prompt).toContain('  -   "admin": true,\n  +   "admin": false,\n')
    expect(prompt).toContain('- failing: adds — expected 5, got -1')
  })

  test('messages share a bounded room; past it a failure keeps its first line', () => {
    const big = `Error: lists differ\n${'+ 0123456789012345678901234567890123456789012345678901234567890123456789\n'.repeat(39)}`
    const evidence = failureEvidence(verdict(Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, message: big }))))
    expect(evidence.join('\n').length).toBeLessThan(16_000)
    expect(evidence).toContain('failing: t19 — Error: lists differ (message cut)')
    expect(evidence[evidence.length - 1]).toBe('… and 10 more failing tests')
  })

  test('with no failure read, the end of the output (colours stripped) in a fence', () => {
    const evidence = failureEvidence(verdict([], 'line 1\n\u001b[31mYAMLException: bad indentation (3:5)\u001b[0m\n'))
    expect(evidence[1]).toBe('gate output (end):\n```\nline 1\nYAMLException: bad indentation (3:5)\n```')
  })
})

describe("the summary's last gate failure", () => {
  test('shows each message under its test as a code block', () => {
    const section = failingTestsSection({ lastVerdict: verdict([{ id: 'is admin', message: DIFF }]) } as RunOutcome)
    // Agent-written text is inert: the test id in a code span, the message and diff in a code block under it.
    expect(section).toMatch(
      /- ` is admin `\s*\n\s*```\n\s*AssertionError: expected \{ admin: false \} to deeply equal \{ admin: true \}[\s\S]*- Expected\n\s*\+ Received[\s\S]*```/
    )
  })
})
