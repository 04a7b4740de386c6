import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { TEST_PYTHON } from './needs-tools.js'
import { tempDir } from './repo.js'

/**
 * Builds a pure-Python wheel with `zipfile` (no `wheel` module needed): the package's modules, and
 * the dist-info's METADATA, WHEEL and RECORD. Reads a JSON job on stdin.
 */
const BUILD_WHEEL = `
import base64, hashlib, json, sys, zipfile
job = json.load(sys.stdin)
dist, version, files = job['dist'], job['version'], job['files']
info = f"{dist}-{version}.dist-info"
entries = dict(files)
entries[f"{info}/METADATA"] = f"Metadata-Version: 2.1\\nName: {job['name']}\\nVersion: {version}\\n"
entries[f"{info}/WHEEL"] = "Wheel-Version: 1.0\\nGenerator: loopgate-tests\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"
record = []
for name, text in entries.items():
    data = text.encode()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    record.append(f"{name},sha256={digest},{len(data)}")
record.append(f"{info}/RECORD,,")
entries[f"{info}/RECORD"] = "\\n".join(record) + "\\n"
with zipfile.ZipFile(job['out'], "w", zipfile.ZIP_DEFLATED) as z:
    for name, text in entries.items():
        z.writestr(name, text)
`

/** http.server, the wheels served as PyPI serves its files: immutable, cacheable for a year. */
const SERVE = `
import functools, http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        if self.path.endswith('.whl'):
            self.send_header('Cache-Control', 'max-age=365000000, immutable, public')
        super().end_headers()
    def log_message(self, *args):
        pass
http.server.test(HandlerClass=functools.partial(Handler, directory=sys.argv[1]), port=0, bind='127.0.0.1')
`

export interface PackageIndex {
  /** The folder served (`simple/<project>/<wheel>`). */
  root: string
  /** The simple index's URL (`…/simple/`), as `PIP_INDEX_URL` takes it. */
  url: string
  /**
   * A name for this index as a Poetry source, never another index's: Poetry caches a source's
   * releases under its name, so two tests in one process naming theirs alike would read each other's.
   */
  sourceName: string
  /** The environment that points pip at this index and keeps it quiet. */
  env: Record<string, string>
  /**
   * Publishes a wheel of `name` at `version` built from `files` (paths inside the wheel), and
   * rewrites the project's simple page. `projectUrls` also serves PyPI's JSON API for this version.
   */
  publish(name: string, version: string, files: Record<string, string>, projectUrls?: Record<string, string>): void
  stop(): Promise<void>
}

/** PEP 503's normalized name. */
const normalize = (name: string): string => name.toLowerCase().replace(/[-_.]+/g, '-')

/** A PEP 503 simple index (and, per version, PyPI's JSON API) served by Python's http.server on 127.0.0.1. */
export async function startPackageIndex(): Promise<PackageIndex> {
  const root = tempDir('loopgate-pypi-')
  const child: ChildProcess = spawn(TEST_PYTHON, ['-u', '-c', SERVE, root], {
    stdio: ['ignore', 'pipe', 'ignore']
  })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('http.server did not start within 30 s')), 30_000)
    child.once('exit', (code) => reject(new Error(`http.server exited (${code})`)))
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /port (\d+)/.exec(line)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
  })
  const url = `http://127.0.0.1:${port}/simple/`
  const wheels = new Map<string, string[]>()
  return {
    root,
    url,
    sourceName: `lg-local-${port}-${randomBytes(4).toString('hex')}`,
    env: { PIP_INDEX_URL: url, PIP_DISABLE_PIP_VERSION_CHECK: '1', PIP_NO_INPUT: '1' },
    publish(name, version, files, projectUrls) {
      const project = normalize(name)
      const dist = name.replace(/[-.]+/g, '_')
      const file = `${dist}-${version}-py3-none-any.whl`
      const dir = path.join(root, 'simple', project)
      mkdirSync(dir, { recursive: true })
      execFileSync(TEST_PYTHON, ['-c', BUILD_WHEEL], {
        input: JSON.stringify({ name, dist, version, files, out: path.join(dir, file) }),
        stdio: ['pipe', 'ignore', 'pipe']
      })
      // The file's hash in its link (as PyPI gives it): pip and Poetry key their caches by it, so a
      // wheel another test served at the same URL (a port used again) is never taken for this one.
      const sha256 = createHash('sha256')
        .update(readFileSync(path.join(dir, file)))
        .digest('hex')
      const list = [...(wheels.get(project) ?? []), `${file}#sha256=${sha256}`]
      wheels.set(project, list)
      const links = list.map((f) => `<a href="${f}">${f.split('#')[0]}</a><br/>`).join('\n')
      writeFileSync(path.join(dir, 'index.html'), `<!DOCTYPE html>\n<html><body>\n${links}\n</body></html>\n`)
      const index = [...wheels.keys()].map((p) => `<a href="${p}/">${p}</a><br/>`).join('\n')
      writeFileSync(path.join(root, 'simple', 'index.html'), `<!DOCTYPE html>\n<html><body>\n${index}\n</body></html>\n`)
      if (projectUrls) {
        const json = path.join(root, 'pypi', project, version)
        mkdirSync(json, { recursive: true })
        writeFileSync(path.join(json, 'json'), JSON.stringify({ info: { name, version, project_urls: projectUrls }, urls: [] }))
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
  }
}
