/**
 * The gate runs in progress in this process, for a progress line: how long each has run and, where
 * its runner streams one line per result as it goes, how many tests it has reported so far. Only a
 * hint for people watching: the verdict never reads these counts.
 */

/** A gate run's counter of streamed results, fed the command's stdout lines as they arrive. */
interface LiveGateRun {
  onLine(line: string): void
  close(): void
}

interface OpenRun {
  started: number
  tests: number | null
}

const OPEN = new Set<OpenRun>()

/** What the open gate runs amount to: the longest one's time, and the tests counted so far (null when no runner streams them). */
interface LiveGate {
  elapsedMs: number
  tests: number | null
}

export function liveGate(now = Date.now()): LiveGate | null {
  if (OPEN.size === 0) return null
  let elapsedMs = 0
  let tests: number | null = null
  for (const run of OPEN) {
    elapsedMs = Math.max(elapsedMs, now - run.started)
    if (run.tests !== null) tests = (tests ?? 0) + run.tests
  }
  return { elapsedMs, tests }
}

type Counter = (line: string) => number | { total: number } | null

/** node:test's spec reporter: one `✔`/`✖`/`﹣` line per test, a suite's own under its `▶` header; `ℹ tests N` at the end. */
function nodeTestCounter(): Counter {
  const suites = new Set<string>()
  let done = false
  return (line) => {
    if (done) return null
    const total = /^ℹ tests (\d+)$/.exec(line)
    if (total) {
      done = true
      return { total: Number(total[1]) }
    }
    const suite = /^(\s*)▶ (.*)$/.exec(line)
    if (suite) suites.add(`${suite[1]}${suite[2].replace(/ \([\d.]+m?s\)$/, '')}`)
    const result = /^(\s*)[✔✖﹣] (.*?) \([\d.]+m?s\)/.exec(line)
    if (!result || suites.has(`${result[1]}${result[2]}`)) return null
    return 1
  }
}

/** vitest's default reporter: ` ✓ file (N tests) 5ms` as each file ends. */
const vitestCounter: Counter = (line) => {
  const m = /^\s*[✓×❯↓]\s+\S.*\((\d+) tests?(?: \| [^)]*)?\)/.exec(line)
  return m ? Number(m[1]) : null
}

/** pytest's progress: `tests/test_a.py ..F.s  [ 50%]`, one character per test. */
const pytestCounter: Counter = (line) => {
  const m = /^\S+\.py ([.FEsxX]+)\s*(?:\[\s*\d+%\])?$/.exec(line)
  return m ? m[1].length : null
}

function counterFor(runner: string | null): Counter | null {
  if (runner === 'node:test') return nodeTestCounter()
  if (runner === 'vitest') return vitestCounter
  if (runner === 'pytest') return pytestCounter
  return null
}

/** Opens a live gate run for a command started through `runner`'s report channel (null: no channel). */
export function openLiveGateRun(runner: string | null, now = Date.now()): LiveGateRun {
  const counter = counterFor(runner)
  const run: OpenRun = { started: now, tests: counter ? 0 : null }
  OPEN.add(run)
  return {
    onLine(line) {
      if (!counter) return
      // Runners colour their lines even into a pipe.
      const counted = counter(line.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
      if (counted === null) return
      run.tests = typeof counted === 'number' ? (run.tests ?? 0) + counted : counted.total
    },
    close: () => void OPEN.delete(run)
  }
}
