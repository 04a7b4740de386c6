import { backoffDelay, isTransientNetworkError, withRetry } from '../src/process/retry.js'

/** A step that fails with the given errors in turn, then returns 'ok'; it records every call. */
function flaky(failures: Error[]) {
  const calls: number[] = []
  const step = async (attempt: number): Promise<string> => {
    calls.push(attempt)
    const err = failures[calls.length - 1]
    if (err) throw err
    return 'ok'
  }
  return { step, calls }
}

function recorder() {
  const waits: number[] = []
  return { waits, sleep: async (ms: number) => void waits.push(ms) }
}

describe('withRetry', () => {
  it('a step that fails twice on the network, then succeeds: three attempts, two growing waits', async () => {
    const { step, calls } = flaky([new Error('error: RPC failed; HTTP 502 curl 22'), new Error('fatal: early EOF')])
    const { waits, sleep } = recorder()
    const retried: number[] = []
    await expect(
      withRetry(step, { isTransient: isTransientNetworkError, sleep, random: () => 1, baseDelayMs: 100, onRetry: (_e, n) => retried.push(n) })
    ).resolves.toBe('ok')
    expect(calls).toEqual([1, 2, 3])
    expect(waits).toEqual([100, 200])
    expect(retried).toEqual([1, 2])
  })

  it('gives up after three attempts with the last error', async () => {
    const { step, calls } = flaky([new Error('ECONNRESET 1'), new Error('ECONNRESET 2'), new Error('ECONNRESET 3'), new Error('never')])
    const { sleep } = recorder()
    await expect(withRetry(step, { isTransient: isTransientNetworkError, sleep })).rejects.toThrow('ECONNRESET 3')
    expect(calls).toEqual([1, 2, 3])
  })

  it('never retries a refusal', async () => {
    for (const message of [
      ' ! [rejected]        x -> x (stale info)',
      ' ! [remote rejected] x -> x (pre-receive hook declined)',
      'remote: Permission to o/r.git denied. fatal: unable to access: The requested URL returned error: 403',
      'fatal: Authentication failed for https://github.com/o/r.git',
      'npm ERR! code E404 npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope',
      'npm ERR! code ETARGET No matching version found'
    ]) {
      const { step, calls } = flaky([new Error(message)])
      const { sleep } = recorder()
      await expect(withRetry(step, { isTransient: isTransientNetworkError, sleep })).rejects.toThrow(message)
      expect([message, calls.length]).toEqual([message, 1])
    }
  })

  it('classifies network and server failures as transient', () => {
    for (const message of [
      'error: RPC failed; curl 56 GnuTLS recv error (-9)',
      'fatal: early EOF',
      'fatal: the remote end hung up unexpectedly',
      'fatal: unable to access: The requested URL returned error: 503',
      'fatal: unable to access: Could not resolve host: github.com',
      'npm ERR! code ECONNRESET',
      'npm ERR! code E503 503 Service Unavailable',
      'npm ERR! network request to https://registry.npmjs.org failed, reason: socket hang up',
      'getaddrinfo EAI_AGAIN registry.npmjs.org'
    ]) {
      expect([message, isTransientNetworkError(new Error(message))]).toEqual([message, true])
    }
    expect(isTransientNetworkError(new Error('error: src refspec main does not match any'))).toBe(false)
  })

  it('waits grow exponentially, jittered between half and all of the step, up to the cap', () => {
    expect(backoffDelay({ attempt: 1, baseDelayMs: 1000, maxDelayMs: 30_000, random: () => 0 })).toBe(500)
    expect(backoffDelay({ attempt: 1, baseDelayMs: 1000, maxDelayMs: 30_000, random: () => 1 })).toBe(1000)
    expect(backoffDelay({ attempt: 3, baseDelayMs: 1000, maxDelayMs: 30_000, random: () => 0.5 })).toBe(3000)
    expect(backoffDelay({ attempt: 10, baseDelayMs: 1000, maxDelayMs: 30_000, random: () => 1 })).toBe(30_000)
  })
})
