/**
 * Lockfiles of ecosystems that have no folder of their own yet: the gate refuses any change to
 * them (it cannot read them entry by entry), and npm stays away from a project that has one.
 * An ecosystem that gets a folder takes its names from here.
 */
export const UNMANAGED_LOCKFILES: Readonly<Record<string, readonly string[]>> = {
  bun: ['bun.lockb', 'bun.lock'],
  pipenv: ['Pipfile.lock', 'Pipfile'],
  pdm: ['pdm.lock']
}

/** The lockfiles of the JavaScript package managers other than npm (with a folder here or not): beside one, without an npm lockfile, npm stays away. */
export const OTHER_NODE_LOCKFILES = ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock'] as const
