/** Parses one line of a JSON Lines event stream; anything that is not a JSON object is undefined. */
export function parseJsonLine(line: string): Record<string, unknown> | undefined {
  const text = line.trim()
  if (!text.startsWith('{')) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}

export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/** The model named by `--model X`, `--model=X`, `-m X` in CLI arguments, if any. */
export function modelFromArgs(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if ((arg === '--model' || arg === '-m') && i + 1 < args.length) return args[i + 1]
    if (arg.startsWith('--model=')) return arg.slice('--model='.length)
  }
  return undefined
}
