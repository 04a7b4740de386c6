import { Ajv, type ValidateFunction } from 'ajv'
import formatsModule from 'ajv-formats'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The checked-in subset of GitHub's OpenAPI description (scripts/extract-openapi.mjs). */
type Json = Record<string, unknown>

/** OpenAPI 3.0 `nullable` without a `type` (next to allOf/$ref) becomes JSON Schema `anyOf [.., null]`. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema)
  if (!node || typeof node !== 'object') return node
  const out: Json = {}
  for (const [k, v] of Object.entries(node as Json)) out[k] = toJsonSchema(v)
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable
    return { anyOf: [out, { type: 'null' }] }
  }
  return out
}

export const SPEC = toJsonSchema(JSON.parse(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'openapi-subset.json'), 'utf8'))) as {
  paths: Record<string, Record<string, Json>>
  components: Record<string, Record<string, Json>>
}

const SPEC_ID = 'github'

function makeAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes: false, validateFormats: true })
  // ajv-formats is CommonJS: its plugin is the module's default export.
  const addFormats = ((formatsModule as unknown as { default?: unknown }).default ?? formatsModule) as (a: Ajv) => Ajv
  addFormats(ajv)
  ajv.addFormat('repo.nwo', /^[^/]+\/[^/]+$/)
  ajv.addSchema(SPEC, SPEC_ID)
  return ajv
}

const ajv = makeAjv()
const compiled = new Map<string, ValidateFunction>()

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

function validator(pointer: string[]): ValidateFunction {
  const ref = `${SPEC_ID}#/${pointer.map(escape).join('/')}`
  const known = compiled.get(ref)
  if (known) return known
  const fn = ajv.compile({ $ref: ref })
  compiled.set(ref, fn)
  return fn
}

function resolve(node: Json, pointer: string[]): { node: Json; pointer: string[] } {
  let current = node
  let at = pointer
  while (typeof current.$ref === 'string') {
    at = (current.$ref as string).replace(/^#\//, '').split('/')
    current = at.reduce<Json>((n, key) => n[key] as Json, SPEC as unknown as Json)
  }
  return { node: current, pointer: at }
}

export interface Operation {
  method: string
  route: string
  operationId: string
  params: Record<string, string>
}

/** Finds the operation for a method and path, with its path parameters. */
export function matchOperation(method: string, urlPath: string): Operation | null {
  const lower = method.toLowerCase()
  for (const [route, methods] of Object.entries(SPEC.paths)) {
    const op = methods[lower]
    if (!op) continue
    const names: string[] = []
    const pattern = new RegExp(
      `^${route.replace(/\{([^}]+)\}/g, (_m, name: string) => {
        names.push(name)
        return '([^/]+)'
      })}$`
    )
    const m = pattern.exec(urlPath)
    if (!m) continue
    const params: Record<string, string> = {}
    names.forEach((n, i) => (params[n] = decodeURIComponent(m[i + 1])))
    return { method: lower, route, operationId: op.operationId as string, params }
  }
  return null
}

function errorsOf(fn: ValidateFunction): string {
  return (fn.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ')
}

function coerce(raw: string, schema: Json): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return raw.trim() === '' ? raw : Number(raw)
  if (schema.type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw
  return raw
}

/** Problems with a request: path/query parameters and JSON body against the operation. */
export function checkRequest(op: Operation, query: URLSearchParams, body: unknown): string[] {
  const problems: string[] = []
  const opPointer = ['paths', op.route, op.method]
  const spec = SPEC.paths[op.route][op.method]
  const params = (spec.parameters as Json[] | undefined) ?? []
  const known = new Set<string>()
  params.forEach((p, i) => {
    const { node, pointer } = resolve(p, [...opPointer, 'parameters', String(i)])
    const name = node.name as string
    known.add(`${node.in}:${name}`)
    const raw = node.in === 'path' ? op.params[name] : node.in === 'query' ? query.get(name) : null
    if (raw === null || raw === undefined) {
      if (node.required) problems.push(`missing ${node.in} parameter ${name}`)
      return
    }
    const fn = validator([...pointer, 'schema'])
    if (!fn(coerce(raw, node.schema as Json))) problems.push(`${node.in} parameter ${name}: ${errorsOf(fn)}`)
  })
  for (const key of query.keys()) if (!known.has(`query:${key}`)) problems.push(`unknown query parameter ${key}`)
  const requestBody = spec.requestBody as Json | undefined
  if (requestBody) {
    const { node, pointer } = resolve(requestBody, [...opPointer, 'requestBody'])
    if (body === undefined) {
      if (node.required) problems.push('missing request body')
    } else {
      const fn = validator([...pointer, 'content', 'application/json', 'schema'])
      if (!fn(body)) problems.push(`body: ${errorsOf(fn)}`)
    }
  } else if (body !== undefined) problems.push('a body was sent to an operation without one')
  return problems
}

/** Problems with an answer: the status must be documented and the JSON must match its schema. */
export function checkResponse(op: Operation, status: number, body: unknown): string[] {
  const responses = SPEC.paths[op.route][op.method].responses as Record<string, Json>
  const entry = responses[String(status)]
  if (!entry) {
    // GitHub documents 5xx/403/404 only on some operations; the server's injected failures are allowed.
    return status >= 500 || status === 403 || status === 404 ? [] : [`status ${status} is not documented for ${op.operationId}`]
  }
  const { node, pointer } = resolve(entry, ['paths', op.route, op.method, 'responses', String(status)])
  const content = node.content as Json | undefined
  if (!content || !(content['application/json'] as Json | undefined)?.schema) return []
  const fn = validator([...pointer, 'content', 'application/json', 'schema'])
  return fn(body) ? [] : [`response ${status} of ${op.operationId}: ${errorsOf(fn)}`]
}

/** The schema of a documented component, for building answers. */
export function componentSchema(name: string): Json {
  return SPEC.components.schemas[name]
}

/** A minimal instance of a schema: required fields only, the first choice of every union. */
export function sample(schema: Json, depth = 0): unknown {
  if (depth > 12) return null
  const { node } = resolve(schema, [])
  if (node.nullable === true && depth > 0) return null
  if (Array.isArray(node.enum)) return node.enum[0]
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = node[key] as Json[] | undefined
    if (options?.length) return sample(options[0], depth + 1)
  }
  if (Array.isArray(node.allOf)) {
    return Object.assign({}, ...(node.allOf as Json[]).map((s) => sample(s, depth + 1) as object))
  }
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      const props = (node.properties as Record<string, Json> | undefined) ?? {}
      for (const name of (node.required as string[] | undefined) ?? []) {
        out[name] = props[name] ? sample(props[name], depth + 1) : null
      }
      return out
    }
    case 'array':
      return []
    case 'integer':
    case 'number':
      return 1
    case 'boolean':
      return false
    case 'string':
      switch (node.format) {
        case 'date-time':
          return '2026-01-01T00:00:00Z'
        case 'uri':
        case 'uri-template':
          return 'https://api.github.com/x'
        case 'email':
          return 'x@example.com'
        default:
          return 'x'
      }
    default:
      return null
  }
}
