import type { FailureItem } from '../../loop/engine-types.js'
import { stripAnsi } from './failure-text.js'

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Paths under the gate's checkout as the repository's own (`lib/loader.js`), colours removed. */
export function inRepository(text: string, checkout: string): string {
  const root = checkout.replace(/[\\/]+$/, '')
  if (!root) return stripAnsi(text)
  return stripAnsi(text).replace(new RegExp(`(?:file://)?${escapeRegExp(root)}(?:[\\\\/]|(?=[\\s:'")]|$))`, 'g'), '')
}

/** A failure as a prompt and a body show it: repository paths, no colour codes. */
export function failureInRepository(failure: FailureItem, checkout: string): FailureItem {
  return { ...failure, id: inRepository(failure.id, checkout), message: inRepository(failure.message, checkout) }
}
