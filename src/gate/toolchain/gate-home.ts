import { writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The identity git takes in a gate run's fresh HOME. Suites that commit in repositories they make
 * (release tooling, git helpers) rely on the developer's or the CI's global identity; without one
 * in the gate's HOME every such test fails at the base and after any fix alike. It is the lowest
 * scope git reads (global): a test that sets its own identity in its repository still gets that one.
 */
const GATE_GIT_IDENTITY = { name: 'loopgate gate', email: 'gate@loopgate.invalid' }

/** Writes the gate HOME's `.gitconfig` (root's, read-only to the gate user). */
export function writeGateGitConfig(home: string): void {
  const text = `[user]\n\tname = ${GATE_GIT_IDENTITY.name}\n\temail = ${GATE_GIT_IDENTITY.email}\n`
  writeFileSync(path.join(home, '.gitconfig'), text, { mode: 0o644 })
}
