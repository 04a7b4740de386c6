import { XMLParser } from 'fast-xml-parser'
import { failureText, firstLineOf } from '../failure-text.js'
import { FailureList, type TestReport } from '../report-model.js'
import type { ReportFormat } from '../report-format.js'

type XmlNode = Record<string, unknown>

const REPEATED = new Set(['testsuite', 'testcase', 'failure', 'error', 'skipped', 'system-out', 'system-err'])

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  textNodeName: '#text',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  processEntities: true,
  htmlEntities: true,
  isArray: (name) => REPEATED.has(name)
})

function list(value: unknown): XmlNode[] {
  return Array.isArray(value) ? (value as unknown[]).map(asNode) : value === undefined ? [] : [asNode(value)]
}

function asNode(value: unknown): XmlNode {
  return typeof value === 'object' && value !== null ? (value as XmlNode) : { '#text': String(value ?? '') }
}

function attr(node: XmlNode, name: string): string {
  const v = node[`@${name}`]
  return typeof v === 'string' ? v : ''
}

function text(node: XmlNode): string {
  const v = node['#text']
  return typeof v === 'string' ? v : ''
}

/** A failure's message: the element's text, led by its message attribute when the text lacks it. */
function failureMessage(el: XmlNode, fallback: string): string {
  const body = text(el)
  const message = attr(el, 'message')
  const lead = firstLineOf(message)
  if (!body.trim()) return failureText(message || attr(el, 'type')) || fallback
  const quoted = failureText(body)
  // node:test writes the message attribute with its line breaks removed: compare without whitespace
  const squash = (s: string): string => s.replace(/\s+/g, '')
  return (lead && !squash(body).includes(squash(lead)) ? `${failureText(message)}\n${quoted}` : quoted) || fallback
}

/** pytest's entry for a module that failed to import: no test of it ran. */
function collectionError(tc: XmlNode): boolean {
  return attr(tc, 'classname') === '' && tc.failure === undefined && list(tc.error).some((el) => attr(el, 'message') === 'collection failure')
}

/**
 * Reads a JUnit XML report (jest-junit, vitest, pytest --junitxml, mocha-junit-reporter,
 * go-junit-report, surefire) with an XML parser. Throws when the text is not a JUnit report.
 */
export function parseJUnit(xml: string): TestReport {
  let doc: XmlNode
  try {
    doc = parser.parse(xml, true) as XmlNode
  } catch (err) {
    throw new Error(`not a JUnit XML report (${(err as Error).message.split('\n')[0]})`)
  }
  const roots = [...list(doc.testsuites), ...list(doc.testsuite).map((s) => ({ testsuite: [s] }) as XmlNode)]
  if (doc.testsuites === undefined && doc.testsuite === undefined) throw new Error('not a JUnit XML report (no <testsuite> or <testsuites>)')
  let tests = 0
  let skipped = 0
  const failures = new FailureList()
  const passedIds: string[] = []
  const failedIds: string[] = []
  const skippedIds: string[] = []
  const visitSuite = (suite: XmlNode, path: string[]): void => {
    if (path.length > 50) return
    const suites = attr(suite, 'name') ? [...path, attr(suite, 'name')] : path
    for (const tc of list(suite.testcase)) {
      if (collectionError(tc)) {
        failures.add(attr(tc, 'name') || 'collection', failureMessage(list(tc.error)[0], 'collection failure'))
        continue
      }
      tests++
      // node:test's reporter writes the placeholder classname "test"; its suites name the test
      const classname = attr(tc, 'classname') === 'test' ? '' : attr(tc, 'classname')
      const cls = classname || attr(tc, 'class') || suites.join(' › ')
      const name = attr(tc, 'name')
      const id = cls && name ? `${cls} › ${name}` : name || cls || `test ${tests}`
      const bad = [...list(tc.failure), ...list(tc.error)]
      if (bad.length > 0) {
        failures.add(id, bad.map((el) => failureMessage(el, tc.failure ? 'failure' : 'error')).join('\n'))
        failedIds.push(id)
      } else if (tc.skipped !== undefined) {
        skipped++
        skippedIds.push(id)
      } else passedIds.push(id)
    }
    for (const child of list(suite.testsuite)) visitSuite(child, suites)
  }
  for (const root of roots) {
    for (const suite of list(root.testsuite)) visitSuite(suite, [])
    // a root may hold testcases directly
    if (root.testcase !== undefined) visitSuite({ testcase: root.testcase }, [])
  }
  return { format: 'junit', tests, failed: failures.items.length, skipped, failures: failures.items, passedIds, failedIds, skippedIds }
}

/** A JUnit XML report printed to the console (`vitest --reporter=junit`, mocha's xunit reporter). */
function junitIn(text: string): TestReport | null {
  const start = text.search(/<\?xml[^>]*\?>\s*<testsuites?\b|<testsuites?\b/)
  if (start < 0) return null
  const close = Math.max(text.lastIndexOf('</testsuites>'), text.lastIndexOf('</testsuite>'))
  if (close < start) return null
  try {
    return parseJUnit(text.slice(start, text.indexOf('>', close) + 1))
  } catch {
    return null
  }
}

export const junitFormat: ReportFormat = {
  id: 'junit',
  isFile: (text) => /^\s*(?:<\?xml|<testsuites?\b|<!--)/.test(text),
  parse: (text) => parseJUnit(text),
  inConsole: (text) => junitIn(text)
}
