// Bundles the action (index.js) and the CLI (cli/index.js) in one esbuild pass with shared
// chunks; the clients loaded on demand (cache, artifact, tool cache) become chunks of their own.
// `node scripts/package.mjs [outdir]` (default dist).
import { build } from 'esbuild'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const out = path.resolve(process.argv[2] ?? 'dist')
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const result = await build({
  entryPoints: { index: 'src/index.ts', 'cli/index': 'src/cli.ts' },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // Some bundled CommonJS packages call require() on Node built-ins.
  banner: { js: "import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);" },
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning'
})

// The licenses of every bundled package.
const packages = new Map()
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (!m) continue
  const dir = input.slice(0, m.index + m[0].length)
  if (packages.has(dir)) continue
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
  const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'license', 'LICENCE'].map((f) => path.join(dir, f)).find((f) => existsSync(f))
  packages.set(dir, `${pkg.name}\n${pkg.license ?? ''}\n${file ? readFileSync(file, 'utf8') : ''}`)
}
writeFileSync(path.join(out, 'licenses.txt'), [...new Set(packages.values())].sort().join('\n\n'))
writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type: 'module' }, null, 2)}\n`)
writeFileSync(path.join(out, 'cli.js'), "#!/usr/bin/env node\nimport './cli/index.js'\n")
chmodSync(path.join(out, 'cli.js'), 0o755)
