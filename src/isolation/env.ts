/** Variables every agent gets, when set on the runner. */
const BASE_ALLOW = ['PATH', 'HOME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'TMPDIR', 'CI', 'USER', 'SHELL']

/** Never passed to an agent or a gate, whatever an allow-list says. */
const DENY = [/^INPUT_/i, /^ACTIONS_/i, /^GITHUB_TOKEN$/i, /^GH_TOKEN$/i, /^ACTIONS_ID_TOKEN_REQUEST_/i, /^RUNNER_/i, /TOKEN/i, /SECRET/i, /PASSWORD/i]

export function isDenied(name: string): boolean {
  return DENY.some((re) => re.test(name))
}

/** The variables of `source` every agent gets and those `allowed` names; none the deny rule refuses. */
export function allowListed(source: NodeJS.ProcessEnv, allowed: readonly string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const name of [...BASE_ALLOW, ...allowed]) {
    if (isDenied(name)) continue
    const value = source[name]
    if (value !== undefined) env[name] = value
  }
  return env
}
