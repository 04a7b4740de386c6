/**
 * The names the judge itself loads: the test frameworks and assertion libraries a gate runs, and
 * in Python the runner, its plugins' machinery, their dependencies and the standard library.
 */

/** Module specifiers (JavaScript) of test frameworks and assertion libraries: a name, or a scope's every package. */
const JS_JUDGE =
  /^(?:vitest|@vitest\/.*|jest|@jest\/.*|jest-[\w.-]+|expect|chai|chai-[\w.-]+|mocha|node:test|ava|tap|uvu|jasmine|jasmine-core|@playwright\/test)(?:\/.*)?$/

/** Top-level Python modules of the runners and their machinery. */
const PY_RUNNER = new Set([
  'pytest',
  '_pytest',
  'py',
  'pluggy',
  'iniconfig',
  'packaging',
  'exceptiongroup',
  'tomli',
  'colorama',
  'attr',
  'attrs',
  'more_itertools',
  'atomicwrites',
  'importlib_metadata',
  'zipp',
  'typing_extensions',
  'pygments',
  'nose',
  'nose2'
])

/** Top-level Python modules whose import in project source loads the judge (its own, not the standard library's at large). */
const PY_JUDGE = new Set(['pytest', '_pytest', 'pluggy', 'unittest', 'doctest', 'nose', 'nose2'])

/** The standard library's top-level modules (Python 3.11's sys.stdlib_module_names, public ones). */
const PY_STDLIB = new Set(
  '__future__ abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo'.split(
    ' '
  )
)

/** The judge's name a JavaScript specifier loads (the specifier), or null. */
export function jsJudgeName(specifier: string): string | null {
  return JS_JUDGE.test(specifier) ? specifier.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1') : null
}

/** Whether project source importing this top-level Python module loads the judge. */
export function pyJudgeName(module: string): boolean {
  return PY_JUDGE.has(module)
}

/** Why a top-level Python module of this name in the checkout would stand in for one the judge imports, or null. */
export function judgeModuleRole(name: string): string | null {
  if (PY_RUNNER.has(name)) return 'the test runner or its machinery'
  if (PY_STDLIB.has(name)) return "Python's standard library"
  return null
}
