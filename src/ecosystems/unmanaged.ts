/**
 * Lockfiles of ecosystems that have no folder of their own yet: the gate refuses any change to
 * them (it cannot read them entry by entry), and npm stays away from a project that has one.
 * An ecosystem that gets a folder takes its names from here.
 */
export const UNMANAGED_LOCKFILES: Readonly<Record<string, readonly string[]>> = {
  pnpm: ['pnpm-lock.yaml'],
  yarn: ['yarn.lock'],
  bun: ['bun.lockb', 'bun.lock'],
  uv: ['uv.lock'],
  poetry: ['poetry.lock'],
  pipenv: ['Pipfile.lock', 'Pipfile'],
  pdm: ['pdm.lock']
}

/** The JavaScript package managers whose lockfile or `packageManager` name makes a project theirs, not npm's. */
export const OTHER_NODE_MANAGERS = ['pnpm', 'yarn', 'bun'] as const
