// Prints the CHANGELOG.md section of one version (the release notes of its tag):
//   node scripts/release-notes.mjs 1.2.3 [CHANGELOG.md]
// Fails when the section is missing or empty, so a tag cannot be released without notes.
import { readFileSync } from 'node:fs'

export function releaseNotes(changelog, version) {
  const lines = changelog.split('\n')
  const heading = new RegExp(`^## \\[${version.replace(/\./g, '\\.')}\\](?:\\s|$)`)
  const start = lines.findIndex((l) => heading.test(l))
  if (start < 0) throw new Error(`CHANGELOG.md has no section "## [${version}]"`)
  const end = lines.findIndex((l, i) => i > start && (/^## /.test(l) || /^\[[^\]]+\]: /.test(l)))
  const body = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim()
  if (!body) throw new Error(`the CHANGELOG.md section of ${version} is empty`)
  return `${body}\n`
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [version, file = 'CHANGELOG.md'] = process.argv.slice(2)
  if (!version) {
    process.stderr.write('usage: node scripts/release-notes.mjs <version> [CHANGELOG.md]\n')
    process.exit(2)
  }
  try {
    process.stdout.write(releaseNotes(readFileSync(file, 'utf8'), version.replace(/^v/, '')))
  } catch (err) {
    process.stderr.write(`${err.message}\n`)
    process.exit(1)
  }
}
