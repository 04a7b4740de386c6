/** The flip-only features checklist: parsing and judging an edit (pure; the guard is gate/features-guard.ts). */
export interface Feature {
  passes: boolean
  test?: string
  [key: string]: unknown
}

/** The features file's list, or why it is not one. */
export function parseFeatures(text: string): Feature[] | string {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    return `invalid JSON (${(err as Error).message})`
  }
  if (!Array.isArray(data)) return 'not a JSON list'
  for (const [i, item] of data.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return `item ${i} is not an object`
    if (typeof (item as Feature).passes !== 'boolean') return `item ${i} has no boolean "passes"`
  }
  return data as Feature[]
}

function withoutPasses(feature: Feature): string {
  const { passes: _passes, ...rest } = feature
  return JSON.stringify(rest)
}

export function label(feature: Feature, index: number): string {
  const name = feature.id ?? feature.name ?? feature.description ?? feature.test
  return typeof name === 'string' ? name : `#${index}`
}

/** The list laid out like `like` when that is a plain JSON.stringify layout, else with two-space indents. */
export function serialise(list: Feature[], parsedLike: Feature[], like: string): string {
  const body = like.trimEnd()
  for (const indent of [2, 4, '\t', 0]) {
    if (JSON.stringify(parsedLike, null, indent) === body) return `${JSON.stringify(list, null, indent)}${like.slice(body.length)}`
  }
  return `${JSON.stringify(list, null, 2)}\n`
}

/** The flips from `before` to `after`, or why `after` is not a flip-only edit of `before`. */
export function diffFeatures(before: Feature[], after: Feature[]): { flips: number[] } | { error: string } {
  if (before.length !== after.length) return { error: `the list changed length (${before.length} → ${after.length})` }
  const flips: number[] = []
  for (let i = 0; i < before.length; i++) {
    if (withoutPasses(before[i]) !== withoutPasses(after[i])) return { error: `${label(before[i], i)} was edited beyond "passes"` }
    if (before[i].passes && !after[i].passes) return { error: `${label(before[i], i)} went from passing to failing` }
    if (!before[i].passes && after[i].passes) flips.push(i)
  }
  return { flips }
}
