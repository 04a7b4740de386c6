// The local CLI: `loopgate run ...` (see README). Filled in by the CLI issue.
import { runCli } from './cli/main.js'

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  }
)
