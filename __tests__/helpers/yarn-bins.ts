import { execFileSync } from 'node:child_process'
import { chmodSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { tempDir } from './repo.js'

/**
 * A folder holding only `yarn`, Yarn classic 1.22.22 (the dev dependency `yarn`): node_modules/.bin/yarn
 * may be either it or Yarn Berry's `@yarnpkg/cli-dist`, whichever npm linked first. Readable by the gate user.
 */
export function yarnClassicBin(): string {
  const dir = tempDir('loopgate-yarn-classic-')
  chmodSync(dir, 0o755)
  symlinkSync(path.resolve('node_modules/yarn/bin/yarn.js'), path.join(dir, 'yarn'))
  return dir
}

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
