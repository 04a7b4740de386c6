// Extracts the few GitHub REST operations loopgate uses from @octokit/openapi into a small
// checked-in file, with every component they reference (examples and prose dropped).
// Usage: node scripts/extract-openapi.mjs [out]  (default __tests__/github-server/openapi-subset.json)
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

export const OPERATIONS = [
  ['get', '/repos/{owner}/{repo}/pulls'],
  ['post', '/repos/{owner}/{repo}/pulls'],
  ['patch', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['post', '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers'],
  ['get', '/repos/{owner}/{repo}/issues'],
  ['post', '/repos/{owner}/{repo}/issues'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/labels'],
  ['post', '/repos/{owner}/{repo}/issues/{issue_number}/assignees'],
  ['get', '/user'],
  ['get', '/users/{username}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['get', '/repos/{owner}/{repo}/pulls/{pull_number}/comments'],
  ['get', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['patch', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['post', '/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions'],
  ['post', '/repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions'],
  ['get', '/repos/{owner}/{repo}/collaborators/{username}/permission'],
  ['get', '/repos/{owner}/{repo}/check-suites/{check_suite_id}/check-runs'],
  ['get', '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations'],
  ['get', '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs'],
  ['get', '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs'],
  ['get', '/repos/{owner}/{repo}/actions/caches'],
  ['post', '/repos/{owner}/{repo}/git/blobs'],
  ['post', '/repos/{owner}/{repo}/git/trees'],
  ['post', '/repos/{owner}/{repo}/git/commits'],
  ['get', '/repos/{owner}/{repo}/git/commits/{commit_sha}'],
  ['post', '/repos/{owner}/{repo}/git/refs'],
  ['patch', '/repos/{owner}/{repo}/git/refs/{ref}']
]

const require = createRequire(import.meta.url)
const source = require.resolve('@octokit/openapi/generated/api.github.com.json')
const spec = JSON.parse(readFileSync(source, 'utf8'))
const DROP = new Set(['description', 'summary', 'examples', 'example', 'externalDocs', 'x-github', 'tags'])

function strip(node, inProperties = false) {
  if (Array.isArray(node)) return node.map((n) => strip(n))
  if (!node || typeof node !== 'object') return node
  const out = {}
  for (const [key, value] of Object.entries(node)) {
    // Inside a schema's `properties`, keys are property names (a property may be called "description").
    if (!inProperties && DROP.has(key)) continue
    out[key] = strip(value, !inProperties && key === 'properties')
  }
  return out
}

const components = {}
const pending = []
function collectRefs(node) {
  if (Array.isArray(node)) return node.forEach(collectRefs)
  if (!node || typeof node !== 'object') return
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') pending.push(value)
    else collectRefs(value)
  }
}

const paths = {}
for (const [method, route] of OPERATIONS) {
  const op = spec.paths[route]?.[method]
  if (!op) throw new Error(`no operation ${method} ${route} in ${source}`)
  const kept = strip({ operationId: op.operationId, parameters: op.parameters, requestBody: op.requestBody, responses: op.responses })
  paths[route] = { ...(paths[route] ?? {}), [method]: kept }
  collectRefs(kept)
}
while (pending.length > 0) {
  const ref = pending.pop()
  const [, , kind, name] = ref.split('/')
  if (kind === 'examples') continue
  components[kind] ??= {}
  if (components[kind][name]) continue
  const value = strip(spec.components[kind][name])
  components[kind][name] = value
  collectRefs(value)
}

const out = process.argv[2] ?? path.join('__tests__', 'github-server', 'openapi-subset.json')
const subset = {
  openapi: spec.openapi,
  info: { title: 'GitHub REST subset used by loopgate', version: spec.info.version, source: '@octokit/openapi api.github.com.json' },
  paths,
  components
}
writeFileSync(out, `${JSON.stringify(subset)}\n`)
console.log(`wrote ${out}: ${OPERATIONS.length} operations, ${Object.values(components).reduce((n, c) => n + Object.keys(c).length, 0)} components`)
