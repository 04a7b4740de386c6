import path from 'node:path'
import { runGitBinary } from './command-line.js'

/**
 * `git cat-file --batch` on a repository given by its git directory alone (the gate's private
 * repository, which has no work tree of its own): each of `specs` (`<oid>` or `<commit>:<path>`)
 * answered in order, as the raw bytes git writes, `missing` lines included.
 */
export function readObjectsRaw(gitDir: string, specs: readonly string[]): Promise<Buffer> {
  return runGitBinary({
    args: ['--git-dir', gitDir, 'cat-file', '--batch'],
    at: { cwd: path.dirname(gitDir) },
    input: specs.map((spec) => `${spec}\n`).join('')
  })
}
