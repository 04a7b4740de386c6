import { rmSync } from 'node:fs'

/** The run's own temp folder (set by global-setup.mjs, where os.tmpdir() then points). */
export const TEST_TMP_ENV = 'LOOPGATE_TEST_TMP'

/** Removes the run's temp folder and everything the tests left in it. */
export function removeTestTmp(dir = process.env[TEST_TMP_ENV]) {
  if (dir && /\/loopgate-tests-[^/]+$/.test(dir)) rmSync(dir, { recursive: true, force: true })
}
