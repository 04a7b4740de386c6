import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AttemptLog, readAttemptLog } from '../src/records/attempt-log.js'

describe('the attempt log', () => {
  let dir: string
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'attempt-log-'))))
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads back the entries it wrote, by kind, with the time of each', () => {
    const log = new AttemptLog(path.join(dir, 'run', 'attempts.jsonl'))
    log.write({ type: 'admission', iteration: 2, refused: 'spend-ceiling', spentUsd: 1.5 })
    log.write({ type: 'stop', stopReason: 'spend-ceiling', spentUsd: 1.5, iterations: 1 })
    const entries = readAttemptLog(log.file)
    expect(entries.map((e) => e.type)).toEqual(['admission', 'stop'])
    const stop = entries.find((e) => e.type === 'stop')
    expect(stop?.type === 'stop' && stop.stopReason).toBe('spend-ceiling')
    expect(entries.every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true)
    expect(log.entries).toEqual(entries)
  })

  it('skips a line cut by a kill and a line of no known kind', () => {
    const file = path.join(dir, 'attempts.jsonl')
    new AttemptLog(file).write({ type: 'stop', stopReason: 'cancelled', spentUsd: 0 })
    appendFileSync(file, '{"type":"planted","stopReason":"verified"}\n{"type":"stop","stopReas')
    expect(readAttemptLog(file).map((e) => e.type)).toEqual(['stop'])
    expect(readAttemptLog(path.join(dir, 'absent.jsonl'))).toEqual([])
  })
})
