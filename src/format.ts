/** Money as people read it in summaries, bodies and progress lines: `$1.23`. */
export const usd = (n: number): string => `$${n.toFixed(2)}`
