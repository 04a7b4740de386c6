import path from 'node:path'
import { ConfigError } from '../errors.js'

/** How one input's text becomes a value: numbers, choices, booleans, lists and argument lists. */

export interface NumberRule {
  min: number
  max: number
  integer: boolean
  exclusiveMin?: boolean
}

function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number'
  const low = rule.exclusiveMin ? `greater than ${rule.min}` : `from ${rule.min}`
  return `${kind} ${low} to ${rule.max}`
}

export function parseNumber(name: string, raw: string, rule: NumberRule): number {
  const text = raw.trim()
  const value = text === '' ? NaN : Number(text)
  const ok =
    Number.isFinite(value) && (!rule.integer || Number.isInteger(value)) && (rule.exclusiveMin ? value > rule.min : value >= rule.min) && value <= rule.max
  if (!ok) throw new ConfigError(name, raw, describeRule(rule))
  return value
}

export function parseChoice<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  const value = raw.trim() as T
  if (!choices.includes(value)) throw new ConfigError(name, raw, choices.map((c) => `'${c}'`).join(', '))
  return value
}

const TRUE_WORDS = ['true', 'yes', '1']
const FALSE_WORDS = ['false', 'no', '0', '']

/** A boolean input, strictly: anything but true/yes/1 or false/no/0/empty is refused. */
export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase()
  if (TRUE_WORDS.includes(value)) return true
  if (FALSE_WORDS.includes(value)) return false
  throw new ConfigError(name, raw, "'true' or 'false'")
}

/** A boolean input read where nothing may be refused (the post step): true only for true/yes/1. */
export function isTrueInput(raw: string): boolean {
  return TRUE_WORDS.includes(raw.trim().toLowerCase())
}

/** A newline- or comma-separated list, blank entries dropped. */
export function parseList(raw: string): string[] {
  return raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
}

/** Splits CLI arguments the way a shell would for simple quoting ('…', "…", backslash). */
export function splitArgs(raw: string): string[] {
  const args: string[] = []
  let current = ''
  let quote: '"' | "'" | null = null
  let has = false
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]
    if (quote) {
      if (ch === quote) quote = null
      else if (ch === '\\' && quote === '"' && i + 1 < raw.length) current += raw[++i]
      else current += ch
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      has = true
    } else if (ch === '\\' && i + 1 < raw.length) {
      current += raw[++i]
      has = true
    } else if (/\s/.test(ch)) {
      if (has) args.push(current)
      current = ''
      has = false
    } else {
      current += ch
      has = true
    }
  }
  if (quote) throw new ConfigError('agent-args', raw, 'arguments with balanced quotes')
  if (has) args.push(current)
  return args
}

/** A path inside the workspace: relative, without `..`. */
export function isRelativeInside(p: string): boolean {
  return !path.isAbsolute(p) && !p.split(/[\\/]/).includes('..')
}

/** The inputs as the part readers see them. */
export interface InputSource {
  /** The input as given ('' when unset). */
  raw(name: string): string
  /** The input, or its action.yml default when blank. */
  get(name: string): string
  /** The trimmed input, or undefined when blank. */
  optional(name: string): string | undefined
  env: NodeJS.ProcessEnv
}
