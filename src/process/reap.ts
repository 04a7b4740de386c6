import { findProcesses } from './proc.js'

/** Pids of live processes whose environment carries LOOPGATE_CALL_ID=<callId>. */
function findCallProcesses(callId: string): number[] {
  const needle = `LOOPGATE_CALL_ID=${callId}`
  return findProcesses((read) => read('environ', 'latin1').split('\0').includes(needle))
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
