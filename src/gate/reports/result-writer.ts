import { createHash } from 'node:crypto'
import { chmodSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { quoted } from './command-words.js'

/**
 * unittest's result writer: unittest (and Django's test command, which runs unittest) writes no
 * report of its own, so loopgate runs it with a result class of its own that records each test's
 * outcome and writes a JUnit XML report to loopgate's report file. The writer is a Python module
 * loopgate writes beside the report, outside the checkout, named after the report's random folder
 * (so no module in the tree can be imported in its place).
 */
export type WriterKind = 'unittest' | 'django'

const WRITER = String.raw`
import os, sys, time, traceback, unittest
from xml.sax.saxutils import escape, quoteattr

_REPORT = __REPORT__
_cases = {}
_order = []

def _case(test):
    tid = test.id()
    if tid not in _cases:
        _order.append(tid)
        cls, _, name = tid.rpartition('.')
        _cases[tid] = {'classname': cls, 'name': name or tid, 'outcome': 'passed', 'text': '', 'time': 0.0}
    return _cases[tid]

def _text(result, err, test):
    try:
        return result._exc_info_to_string(err, test)
    except Exception:
        return ''.join(traceback.format_exception(*err))

class _Recording:
    def startTest(self, test):
        _case(test)['start'] = time.monotonic()
        super().startTest(test)
    def stopTest(self, test):
        c = _case(test)
        c['time'] = time.monotonic() - c.get('start', time.monotonic())
        super().stopTest(test)
    def _bad(self, test, outcome, err):
        c = _case(test)
        if c['outcome'] not in ('failure', 'error'):
            c['outcome'] = outcome
        c['text'] += _text(self, err, test)
    def addFailure(self, test, err):
        self._bad(test, 'failure', err)
        super().addFailure(test, err)
    def addError(self, test, err):
        self._bad(test, 'error', err)
        super().addError(test, err)
    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._bad(test, 'failure' if issubclass(err[0], test.failureException) else 'error', err)
        super().addSubTest(test, subtest, err)
    def addSkip(self, test, reason):
        c = _case(test)
        c['outcome'], c['text'] = 'skipped', str(reason)
        super().addSkip(test, reason)
    def addExpectedFailure(self, test, err):
        c = _case(test)
        c['outcome'], c['text'] = 'skipped', 'expected failure'
        super().addExpectedFailure(test, err)
    def addUnexpectedSuccess(self, test):
        c = _case(test)
        c['outcome'], c['text'] = 'failure', 'unexpected success'
        super().addUnexpectedSuccess(test)

def _write():
    rows = []
    for tid in _order:
        c = _cases[tid]
        head = '<testcase classname=%s name=%s time="%.6f"' % (quoteattr(c['classname']), quoteattr(c['name']), c['time'])
        if c['outcome'] == 'passed':
            rows.append(head + '/>')
        elif c['outcome'] == 'skipped':
            rows.append(head + '><skipped message=%s/></testcase>' % quoteattr(c['text'][:1000]))
        else:
            first = (c['text'].strip().splitlines() or [c['outcome']])[-1]
            rows.append(head + '><%s message=%s>%s</%s></testcase>' % (c['outcome'], quoteattr(first[:1000]), escape(c['text']), c['outcome']))
    body = '<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="unittest" tests="%d">\n%s\n</testsuite></testsuites>\n' % (len(rows), '\n'.join(rows))
    with open(_REPORT, 'w', encoding='utf-8') as f:
        f.write(body)

def _result_class(base):
    return type('LoopgateResult', (_Recording, base or unittest.TextTestResult), {})

class _Runner(unittest.TextTestRunner):
    resultclass = _result_class(unittest.TextTestResult)
    def run(self, test):
        try:
            return super().run(test)
        finally:
            _write()

def _django_runner():
    from django.conf import settings
    from django.test.utils import get_runner
    base = get_runner(settings)
    class Runner(base):
        def get_resultclass(self):
            return _result_class(super().get_resultclass())
        def run_suite(self, suite, **kwargs):
            try:
                return super().run_suite(suite, **kwargs)
            finally:
                _write()
    return Runner

def __getattr__(name):
    if name == 'LoopgateRunner':
        return _django_runner()
    raise AttributeError(name)

if __name__ == '__main__':
    unittest.main(module=None, argv=['python -m unittest'] + sys.argv[1:], testRunner=_Runner)
`

/** The writer's module name for a report file: random as its folder is. */
export function writerModule(file: string): string {
  return `loopgate_${createHash('sha256').update(path.dirname(file)).digest('hex').slice(0, 16)}`
}

function writerPath(file: string): string {
  return path.join(path.dirname(file), `${writerModule(file)}.py`)
}

/** Writes the result writer beside the report file, readable by the gate's user. */
export function placeWriter(file: string): void {
  const at = writerPath(file)
  writeFileSync(at, WRITER.replace('__REPORT__', JSON.stringify(file)), { mode: 0o644 })
  chmodSync(at, 0o644)
}

/**
 * The unittest command run through the writer: `python -m unittest ARGS` becomes `python -c
 * '<run the writer as __main__>' ARGS` (the current folder stays first on `sys.path`, as with
 * `-m`); `python manage.py test ARGS` gets `--testrunner=<writer>.LoopgateRunner` (a subclass of
 * the project's own test runner) with the writer's folder on `PYTHONPATH`.
 */
export function unittestCommand(kind: WriterKind, at: { words: string[]; at: number; file: string }): { command: string; env?: Record<string, string> } {
  const { words, file } = at
  if (kind === 'unittest') {
    const code = `import runpy; runpy.run_path(${JSON.stringify(writerPath(file))}, run_name="__main__")`
    return { command: [...words.slice(0, at.at - 2), '-c', quoted(code), ...words.slice(at.at)].join(' ') }
  }
  const option = `--testrunner=${writerModule(file)}.LoopgateRunner`
  return { command: [...words.slice(0, at.at), option, ...words.slice(at.at)].join(' '), env: { PYTHONPATH: path.dirname(file) } }
}
