/** What an attacker gives pytest to load in place of the judge: each makes every test body a no-op. */

/** pytest's Function.runtest made a no-op: every test body returns before it runs. */
export const DISARM = 'import _pytest.python\n_pytest.python.Function.runtest = lambda self: None\n'

/** A conftest above the checkout: DISARM, under the ids the checkout's own run gives (rootdir moved up). */
export const ANCESTOR_CONFTEST = [
  DISARM.trimEnd(),
  'def pytest_collection_modifyitems(items):',
  '    for item in items:',
  "        item._nodeid = item._nodeid.split('/checkout/', 1)[-1]",
  ''
].join('\n')

/** A top-level pytest.py that runs the real pytest with DISARM applied. */
export const PYTEST_SHIM = [
  'import os, sys',
  'here = os.path.dirname(os.path.abspath(__file__))',
  "sys.path[:] = [p for p in sys.path if os.path.abspath(p or '.') != here]",
  "sys.modules.pop('pytest', None)",
  'import pytest as real',
  DISARM,
  "if __name__ == '__main__':",
  '    raise SystemExit(real.console_main())',
  ''
].join('\n')
