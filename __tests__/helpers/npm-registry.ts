import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { tempDir } from './repo.js'

const VERDACCIO = path.resolve('node_modules/verdaccio')

/** Starts verdaccio in-process of a child, storage in `dir`, no uplinks, listening on a random port. */
const LAUNCHER = `
const { runServer } = require(process.argv[2])
const dir = process.argv[3]
runServer({
  self_path: dir,
  storage: dir + '/storage',
  auth: { htpasswd: { file: dir + '/htpasswd', max_users: -1 } },
  uplinks: {},
  packages: { '**': { access: '$all', publish: '$all', unpublish: '$all' } },
  log: { type: 'stdout', format: 'pretty', level: 'fatal' },
  web: { enable: false }
}).then((app) => {
  const server = app.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'))
})
`

export interface LocalRegistry {
  url: string
  /** The environment that points npm at this registry (and lets it publish). */
  env: Record<string, string>
  /** Publishes a package built from `files` (package.json is written from name/version). */
  publish(name: string, version: string, files: Record<string, string>, extra?: Record<string, unknown>): void
  stop(): Promise<void>
}

/** A real npm registry (verdaccio) on 127.0.0.1, its storage in a temp dir; its output kept quiet. */
export async function startRegistry(): Promise<LocalRegistry> {
  const dir = tempDir('loopgate-registry-')
  const launcher = path.join(dir, 'launch.cjs')
  writeFileSync(launcher, LAUNCHER)
  const child: ChildProcess = spawn(process.execPath, [launcher, VERDACCIO, dir], { stdio: ['ignore', 'pipe', 'ignore'] })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('verdaccio did not start within 60 s')), 60_000)
    child.once('exit', (code) => reject(new Error(`verdaccio exited (${code})`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const { port } = JSON.parse(line) as { port: number }
        clearTimeout(timer)
        resolve(port)
      } catch {
        // verdaccio's own lines
      }
    })
  })
  const url = `http://127.0.0.1:${port}/`
  // npm refuses to publish without a credential; verdaccio lets anyone publish here.
  const userconfig = path.join(dir, 'npmrc')
  writeFileSync(userconfig, `//127.0.0.1:${port}/:_authToken=local-test\n`)
  const env = {
    npm_config_registry: url,
    NPM_CONFIG_USERCONFIG: userconfig,
    npm_config_update_notifier: 'false',
    npm_config_cache: path.join(dir, 'npm-cache')
  }
  return {
    url,
    env,
    publish(name, version, files, extra = {}) {
      const pkg = path.join(dir, 'packages', `${name}-${version}`)
      mkdirSync(pkg, { recursive: true })
      writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name, version, ...extra }, null, 2))
      for (const [file, text] of Object.entries(files)) writeFileSync(path.join(pkg, file), text)
      execFileSync('npm', ['publish'], { cwd: pkg, env: { ...process.env, ...env }, stdio: 'pipe' })
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
  }
}
