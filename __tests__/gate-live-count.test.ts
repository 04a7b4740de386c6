import { liveGate, openLiveGateRun } from '../src/gate/live-gate.js'

const feed = (runner: string | null, lines: string[]): number | null => {
  const run = openLiveGateRun(runner, 0)
  for (const line of lines) run.onLine(line)
  const tests = liveGate(1000)?.tests ?? null
  run.close()
  return tests
}

describe("the gate's tests so far, from its runner's streamed lines", () => {
  it("node:test's spec lines: tests, not suites; the summary's total when it comes", () => {
    const lines = [
      '▶ suite',
      '  ✔ one (301.9ms)',
      '  ✖ two (308.9ms)',
      '    AssertionError: x',
      '✖ suite (612.9ms)',
      '﹣ three (0.1ms) # SKIP',
      '✔ four (300.3ms)'
    ]
    expect(feed('node:test', lines)).toBe(4)
    expect(feed('node:test', [...lines, 'ℹ tests 4', 'ℹ suites 1', '✖ failing tests:', '  ✖ two (308.9ms)'])).toBe(4)
  })

  it("vitest's file lines, coloured as it prints them into a pipe", () => {
    const lines = [
      ' \u001b[32m✓\u001b[39m a.test.mjs \u001b[2m(\u001b[22m\u001b[2m3 tests\u001b[22m\u001b[2m | \u001b[22m\u001b[33m1 skipped\u001b[39m\u001b[2m)\u001b[22m\u001b[32m 27\u001b[2mms',
      ' \u001b[31m❯\u001b[39m b.test.mjs \u001b[2m(\u001b[22m\u001b[2m1 test\u001b[22m\u001b[2m | \u001b[22m\u001b[31m1 failed\u001b[39m\u001b[2m)',
      '   × four 11ms'
    ]
    expect(feed('vitest', lines)).toBe(4)
  })

  it("pytest's progress lines, one character per test", () => {
    expect(feed('pytest', ['============ test session starts ============', 'tests/test_a.py ..F.s                [ 50%]', 'tests/test_b.py ..  [100%]'])).toBe(
      7
    )
  })

  it('a runner that streams nothing loopgate reads: the time only', () => {
    expect(feed('mocha', ['  ✔ one'])).toBeNull()
    expect(feed(null, ['ok 1 - x'])).toBeNull()
    expect(liveGate()).toBeNull()
  })
})
