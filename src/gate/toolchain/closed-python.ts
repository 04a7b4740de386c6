import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { placedFolder } from '../../fs/placed-folder.js'

/**
 * What the gate command's Python processes load is the base's environment, not the tree: Python
 * starts with the safe path (`PYTHONSAFEPATH=1`), so neither the current folder nor a script's
 * folder comes before the installed packages and the standard library; loopgate's own start-up
 * module then puts that folder back after them. The names the base itself has in that folder (its
 * own packages and modules) still import from the tree first, as Python would import them, even
 * where an older copy of the project is installed: only a name the standard library has, or the
 * installed module `python -m` runs, never does. A name the base does not have never stands in
 * for an installed one. pytest's
 * plugin autoload is off, and loopgate's loader registers the `pytest11` plugins of the
 * interpreter's installed packages (its site-packages folders) only: package metadata in the tree
 * is never read. Conftest files above the checkout are never loaded (`--confcutdir`).
 */

/**
 * Python's start-up module, in front of any other: the folder the safe path left out goes after the
 * installed packages, and the base's own names in it are found there first.
 */
const SITECUSTOMIZE = String.raw`
import os
import sys


def _next_sitecustomize():
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    rest = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec('sitecustomize', rest)
    if spec is not None and spec.loader is not None:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)


def _left_out():
    first = sys.argv[0] if sys.argv else ''
    return os.getcwd() if first in ('', '-', '-c', '-m') else os.path.dirname(os.path.realpath(first))


def _base():
    import json
    try:
        with open(os.environ.get('LOOPGATE_PYTHON_BASE_NAMES', ''), encoding='utf-8') as f:
            base = json.load(f)
        return os.path.realpath(base['checkout']), dict(base['folders'])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _ran_installed(where):
    """The top-level name python -m runs, when it is installed: the runner is never the tree's."""
    import importlib.machinery
    argv = list(getattr(sys, 'orig_argv', []))
    if '-m' not in argv[:-1]:
        return None
    run = argv[argv.index('-m') + 1].split('.')[0]
    others = [p for p in sys.path if os.path.abspath(p or os.curdir) != os.path.abspath(where)]
    return run if importlib.machinery.PathFinder.find_spec(run, others) is not None else None


def _within(path, folder):
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _prefixes():
    """The interpreter's own installation (a virtualenv in the checkout is the gate's copy of the base's)."""
    return {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix)}


def _regular(spec):
    return spec is not None and spec.loader is not None and spec.origin not in (None, 'namespace')


class _BaseEnvironment:
    """
    A top-level module from a folder of the checkout only where the base has that name in that
    folder (the project's own, found there first, as Python would find it); any other name comes
    from the standard library and the installed packages when they have it, however the path puts
    the tree before them (pytest's rootdir, a test runner's start folder).
    """

    def __init__(self, checkout, folders, never):
        self.checkout = checkout
        self.folders = folders
        self.never = never
        self.seen = {}

    def _in_tree(self, entry):
        if entry not in self.seen:
            real = os.path.realpath(entry or os.curdir)
            inside = _within(real, self.checkout) and not any(_within(real, p) for p in _prefixes())
            rel = os.path.relpath(real, self.checkout) if inside else None
            self.seen[entry] = '' if rel == os.curdir else rel
        return self.seen[entry]

    def find_spec(self, fullname, path=None, target=None):
        if path is not None:
            return None
        import importlib.machinery
        find = importlib.machinery.PathFinder.find_spec
        others = []
        for entry in sys.path:
            rel = self._in_tree(entry)
            if rel is None:
                others.append(entry)
            elif fullname not in self.never and fullname in self.folders.get(rel, ()):
                spec = find(fullname, [entry])
                # A folder without __init__.py is a namespace portion: a regular package anywhere on the path wins over it.
                if _regular(spec):
                    return spec
        spec = find(fullname, others)
        return spec if _regular(spec) else None


def _after_installed():
    if getattr(sys.flags, 'safe_path', False):
        where = _left_out()
        if where not in sys.path:
            sys.path.append(where)
    else:
        where = os.getcwd()
    base = _base()
    if base is None:
        return
    import importlib.machinery
    never = set(getattr(sys, 'stdlib_module_names', ()))
    ran = _ran_installed(where)
    if ran:
        never.add(ran)
    at = next((i for i, f in enumerate(sys.meta_path) if f is importlib.machinery.PathFinder), len(sys.meta_path))
    sys.meta_path.insert(at, _BaseEnvironment(base[0], base[1], frozenset(never)))


_next_sitecustomize()
_after_installed()
`

/** The pytest plugin that loads the installed packages' plugins (autoload being off). */
const PYTEST_LOADER = String.raw`
import importlib.metadata
import site


def _installed():
    dirs = list(site.getsitepackages()) if hasattr(site, 'getsitepackages') else []
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    return dirs


def pytest_addhooks(pluginmanager):
    try:
        from pluggy._manager import DistFacade
    except ImportError:
        DistFacade = None
    seen = set()
    for dist in importlib.metadata.distributions(path=_installed()):
        for ep in dist.entry_points:
            if ep.group != 'pytest11' or ep.name in seen:
                continue
            seen.add(ep.name)
            if pluginmanager.get_plugin(ep.name) or pluginmanager.is_blocked(ep.name):
                continue
            plugin = ep.load()
            pluginmanager.register(plugin, name=ep.name)
            if DistFacade is not None and hasattr(pluginmanager, '_plugin_distinfo'):
                pluginmanager._plugin_distinfo.append((plugin, DistFacade(dist)))
`

const PYTEST_LOADER_MODULE = '_loopgate_pytest_plugins'

/** Writes loopgate's Python folder in the gate's folder (root's, readable by the gate user), once. */
function placeClosedPython(gateDir: string): string {
  return placedFolder(path.join(gateDir, 'python'), { 'sitecustomize.py': SITECUSTOMIZE, [`${PYTEST_LOADER_MODULE}.py`]: PYTEST_LOADER })
}

const IDENTIFIER = /^(?!__init__$|__main__$)[A-Za-z_][A-Za-z0-9_]*$/
/** A module file's importable name: `mod.py`, `mod.pyc`, `_ext.cpython-312-x86_64-linux-gnu.so`, `_ext.pyd`. */
const MODULE_FILE = /^(?!__init__\.|__main__\.)([A-Za-z_][A-Za-z0-9_]*)(?:\.[^./]+)*\.(?:py|pyc|so|pyd)$/

/**
 * The top-level names each folder of the base holds that Python could import from it (its
 * packages, namespace folders and modules), for the folders a Python process may start in: the
 * top, and every folder with a Python file of its own.
 */
function baseTopLevelNames(files: Iterable<string>): Record<string, string[]> {
  const folders = new Map<string, Set<string>>([['', new Set()]])
  const add = (folder: string, name: string) => {
    const names = folders.get(folder) ?? new Set<string>()
    names.add(name)
    folders.set(folder, names)
  }
  const startable = new Set([''])
  for (const file of files) {
    const parts = file.split('/')
    for (let i = 0; i < parts.length - 1; i++) if (IDENTIFIER.test(parts[i])) add(parts.slice(0, i).join('/'), parts[i])
    const folder = parts.slice(0, -1).join('/')
    const module = MODULE_FILE.exec(parts[parts.length - 1])
    if (module) {
      add(folder, module[1])
      startable.add(folder)
    }
  }
  const out: Record<string, string[]> = {}
  for (const folder of startable) out[folder] = [...(folders.get(folder) ?? [])].sort()
  return out
}

/** Joins loopgate's value in front of what the gate's environment already has. */
const before = (ours: string, theirs: string | undefined, sep: string): string => (theirs ? `${ours}${sep}${theirs}` : ours)

/** The base's names (see baseTopLevelNames) for the gate's checkout, written once beside loopgate's Python folder. */
function placeBaseNames(gateDir: string, checkout: string, baseFiles: Iterable<string>): string {
  const file = path.join(gateDir, `python-names-${createHash('sha256').update(checkout).digest('hex').slice(0, 16)}`, 'base-names.json')
  if (!existsSync(file)) placedFolder(path.dirname(file), { 'base-names.json': JSON.stringify({ checkout, folders: baseTopLevelNames(baseFiles) }) })
  return file
}

/** The gate command's environment additions that close Python's lookups (see above). */
export function closedPythonEnv(where: {
  gateDir: string
  checkout: string
  env: NodeJS.ProcessEnv
  /** The base's files (paths from the top of the checkout). */
  baseFiles: Iterable<string>
}): Record<string, string> {
  const dir = placeClosedPython(where.gateDir)
  const confcut = `--confcutdir=${where.checkout.replace(/(["\\\s'])/g, '\\$1')}`
  return {
    PYTHONSAFEPATH: '1',
    PYTHONPATH: before(dir, where.env.PYTHONPATH, ':'),
    LOOPGATE_PYTHON_BASE_NAMES: placeBaseNames(where.gateDir, where.checkout, where.baseFiles),
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
    PYTEST_ADDOPTS: before(`-p ${PYTEST_LOADER_MODULE} ${confcut}`, where.env.PYTEST_ADDOPTS, ' ')
  }
}
