// ncc writes ESM bundles; dist/ gets a package.json so Node loads them as modules,
// and the CLI bundle a shebang entry at dist/cli.js.
import { chmodSync, writeFileSync } from 'node:fs'

writeFileSync('dist/package.json', `${JSON.stringify({ type: 'module' }, null, 2)}\n`)
writeFileSync('dist/cli.js', "#!/usr/bin/env node\nimport './cli/index.js'\n")
chmodSync('dist/cli.js', 0o755)
