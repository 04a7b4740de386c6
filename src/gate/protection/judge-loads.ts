import { judgeModuleRole, jsJudgeName, pyJudgeName } from './judge-names.js'

/** A path the judge would load from the candidate's tree, and why it is refused. */
export interface JudgeRefusal {
  path: string
  why: string
}

/** Source files whose imports are read. */
export const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py)$/

const JS_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"`]([^'"`\n]+)['"`]/g
const PY_IMPORT = /^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w., \t]+))/gm
const PY_DYNAMIC = /\b(?:__import__|import_module)\s*\(\s*['"]([\w.]+)['"]/g

/** The judge's names a source file imports (test frameworks, assertion libraries, the runner's modules). */
export function judgeImports(file: string, text: string): string[] {
  const names = new Set<string>()
  if (file.endsWith('.py')) {
    const top = (module: string): string => module.split('.')[0]
    for (const m of text.matchAll(PY_IMPORT)) {
      const modules = m[1] !== undefined ? [m[1]] : m[2].split(',').map((s) => s.trim().split(/\s+/)[0])
      for (const module of modules) if (module && pyJudgeName(top(module))) names.add(top(module))
    }
    for (const m of text.matchAll(PY_DYNAMIC)) if (pyJudgeName(top(m[1]))) names.add(top(m[1]))
  } else {
    for (const m of text.matchAll(JS_SPECIFIER)) {
      const name = jsJudgeName(m[1])
      if (name) names.add(name)
    }
  }
  return [...names]
}

/** Folders a top-level Python module may sit in: the checkout's root and `src/`. */
const MODULE_ROOTS = ['', 'src/']

/** The top-level Python module a file is, or is part of (`pytest.py`, `src/json/__init__.py`), or null. */
function topLevelModule(file: string): string | null {
  if (!/\.(?:py|pyc|so|pyd)$/.test(file)) return null
  for (const root of MODULE_ROOTS) {
    if (!file.startsWith(root)) continue
    const rest = file.slice(root.length).split('/')
    const name = rest.length === 1 ? rest[0].replace(/\..*$/, '') : rest[0]
    if (/^[A-Za-z_]\w*$/.test(name) && judgeModuleRole(name)) return name
  }
  return null
}

/**
 * Changed paths the base does not have that take part in Python's resolution: package metadata
 * (`*.dist-info`, `*.egg-info`: entry points such as pytest plugins), `*.egg-link` and `*.pth`
 * files anywhere, and a top-level module or package named like one the judge imports.
 */
export function resolutionTampering(changed: readonly string[], inBase: (path: string) => boolean): JudgeRefusal[] {
  const out: JudgeRefusal[] = []
  for (const file of changed) {
    if (inBase(file)) continue
    const segments = file.split('/')
    const meta = segments.slice(0, -1).find((s) => /\.(?:dist-info|egg-info)$/.test(s))
    if (meta) {
      out.push({ path: file, why: `inside ${meta}: package metadata, whose entry points (pytest plugins among them) the runner loads` })
      continue
    }
    if (/\.(?:egg-link|pth)$/.test(file)) {
      out.push({ path: file, why: 'a path file: Python adds what it names to the import path, and runs its import lines' })
      continue
    }
    const shadowed = topLevelModule(file)
    const role = shadowed ? judgeModuleRole(shadowed) : null
    if (shadowed && role) out.push({ path: file, why: `a top-level module \`${shadowed}\` the judge imports from ${role}: it would be loaded in its place` })
  }
  return out
}
