import { readdirSync, readFileSync } from 'node:fs'

/** Pids of live processes whose environment carries LOOPGATE_CALL_ID=<callId>. */
export function findCallProcesses(callId: string): number[] {
  const needle = `LOOPGATE_CALL_ID=${callId}`
  const found: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return found
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    const pid = Number(entry)
    if (pid === process.pid) continue
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1')
      if (environ.split('\0').includes(needle)) found.push(pid)
    } catch {
      // gone, or not ours to read
    }
  }
  return found
}

/** Kills every process still carrying the call's marker (escaped the process group with setsid). */
export function killCallProcesses(callId: string): number {
  let killed = 0
  for (let round = 0; round < 3; round++) {
    const pids = findCallProcesses(callId)
    if (pids.length === 0) break
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL')
        killed++
      } catch {
        // already gone
      }
    }
  }
  return killed
}
