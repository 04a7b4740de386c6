import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { ROOT } from './helpers/action-runner.js'

describe('npm run demo', () => {
  it('prints the run as a terminal shows it: no workflow commands, warnings on stderr', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'demo.mjs'), '--command-agent'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      timeout: 170_000
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('stop-reason: verified')
    for (const line of `${r.stdout}\n${r.stderr}`.split('\n')) expect(line).not.toMatch(/^::/)
    expect(r.stderr).toMatch(/^warning: /m)
  }, 180_000)
})
