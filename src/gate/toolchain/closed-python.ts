import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/**
 * What the gate command's Python processes load is the base's environment, not the tree: Python
 * starts with the safe path (`PYTHONSAFEPATH=1`), so neither the current folder nor a script's
 * folder comes before the installed packages and the standard library; loopgate's own start-up
 * module then puts that folder back after them, so the project still imports as it did. pytest's
 * plugin autoload is off, and loopgate's loader registers the `pytest11` plugins of the
 * interpreter's installed packages (its site-packages folders) only: package metadata in the tree
 * is never read. Conftest files above the checkout are never loaded (`--confcutdir`).
 */

/** Python's start-up module, in front of any other: the folder the safe path left out goes after the installed packages. */
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


def _after_installed():
    if not getattr(sys.flags, 'safe_path', False):
        return
    first = sys.argv[0] if sys.argv else ''
    where = os.getcwd() if first in ('', '-', '-c', '-m') else os.path.dirname(os.path.realpath(first))
    if where not in sys.path:
        sys.path.append(where)


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

export const PYTEST_LOADER_MODULE = '_loopgate_pytest_plugins'

/** Writes loopgate's Python folder in the gate's folder (root's, readable by the gate user), once. */
export function placeClosedPython(gateDir: string): string {
  const dir = path.join(gateDir, 'python')
  if (existsSync(path.join(dir, `${PYTEST_LOADER_MODULE}.py`))) return dir
  const making = `${dir}.${process.pid}`
  mkdirSync(making, { recursive: true, mode: 0o755 })
  chmodSync(making, 0o755)
  writeFileSync(path.join(making, 'sitecustomize.py'), SITECUSTOMIZE, { mode: 0o644 })
  writeFileSync(path.join(making, `${PYTEST_LOADER_MODULE}.py`), PYTEST_LOADER, { mode: 0o644 })
  renameSync(making, dir)
  return dir
}

/** Joins loopgate's value in front of what the gate's environment already has. */
const before = (ours: string, theirs: string | undefined, sep: string): string => (theirs ? `${ours}${sep}${theirs}` : ours)

/** The gate command's environment additions that close Python's lookups (see above). */
export function closedPythonEnv(where: { gateDir: string; checkout: string; env: NodeJS.ProcessEnv }): Record<string, string> {
  const dir = placeClosedPython(where.gateDir)
  const confcut = `--confcutdir=${where.checkout.replace(/(["\\\s'])/g, '\\$1')}`
  return {
    PYTHONSAFEPATH: '1',
    PYTHONPATH: before(dir, where.env.PYTHONPATH, ':'),
    PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1',
    PYTEST_ADDOPTS: before(`-p ${PYTEST_LOADER_MODULE} ${confcut}`, where.env.PYTEST_ADDOPTS, ' ')
  }
}
