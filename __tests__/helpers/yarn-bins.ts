import { execFileSync } from 'node:child_process'
import { chmodSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from './repo.js'

/** A folder holding only `yarn`, the yarn.js at `target` (relative to the repository), readable by the gate user. */
export function yarnBin(target: string): string {
  const dir = tempDir('loopgate-yarn-bin-')
  chmodSync(dir, 0o755)
  symlinkSync(path.resolve(target), path.join(dir, 'yarn'))
  return dir
}

/**
 * Yarn classic 1.22.22 alone (the dev dependency `yarn`): node_modules/.bin/yarn may be either it
 * or Yarn Berry's `@yarnpkg/cli-dist`, whichever npm linked first.
 */
export const yarnClassicBin = (): string => yarnBin('node_modules/yarn/bin/yarn.js')

/** Yarn Berry alone, the dev dependency `@yarnpkg/cli-dist`. */
export const yarnBerryBin = (): string => yarnBin('node_modules/@yarnpkg/cli-dist/bin/yarn.js')

/** A folder with corepack's `yarn` shim, as `corepack enable` leaves on a runner: it runs the version package.json declares. */
export function corepackYarnShim(): string {
  const dir = tempDir('loopgate-corepack-shims-')
  chmodSync(dir, 0o755)
  execFileSync('corepack', ['enable', '--install-directory', dir, 'yarn'], { stdio: 'pipe' })
  return dir
}

/** PATH without any node_modules/.bin folder (nor the given folders). */
export function pathWithout(...dirs: string[]): string {
  return (process.env.PATH ?? '/usr/bin:/bin')
    .split(':')
    .filter((d) => !d.includes('node_modules') && !dirs.includes(d))
    .join(':')
}
