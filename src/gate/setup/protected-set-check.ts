import { ConfigError } from '../../errors.js'

/**
 * A protected set that holds no file of the base leaves the agent free to rewrite every test the
 * gate runs: the gate would then judge nothing. That is a config-error before anything is spent.
 */
export function requireProtectedFiles(protectedFiles: number, patterns: readonly string[], base: { sha: string; source: string }): void {
  if (protectedFiles > 0) return
  const exclusions = patterns.filter((p) => p.startsWith('!'))
  throw new ConfigError(
    'protected-paths',
    exclusions.length ? exclusions.join(', ') : '',
    `a list that protects at least one file of the base ${base.sha.slice(0, 7)} (${base.source}); as given it protects none, so the agent could rewrite the tests the gate runs. ${
      exclusions.length ? 'Remove the exclusions that drop every file' : 'Name the test files'
    } (e.g. protected-paths: 'checks/**')`
  )
}

/**
 * The protected set as it is in force: the exclusions first (a long list cut short never hides
 * one), then the patterns, cut to fit a note, with the count of files they hold at the base.
 */
export function protectedListNote(patterns: readonly string[], protectedFiles: number, quote: (p: string) => string): string {
  const exclusions = patterns.filter((p) => p.startsWith('!'))
  const shown: string[] = []
  let length = 0
  const included = patterns.filter((p) => !p.startsWith('!'))
  for (const p of included) {
    const q = quote(p)
    if (length + q.length > 3000) break
    shown.push(q)
    length += q.length + 2
  }
  const more = included.length - shown.length
  const except = exclusions.length ? `, except ${exclusions.map((p) => quote(p.slice(1))).join(', ')}` : ''
  return `protected paths (resolved): ${shown.join(', ')}${more ? ` and ${more} more` : ''}${except} (${protectedFiles} file(s) at the base)`
}
