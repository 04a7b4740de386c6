/** How much the loop state keeps of each record: older entries drop out, larger ones are not kept. */
export const LIMITS = {
  runs: 20,
  periodCharges: 500,
  evidenceLines: 40,
  evidenceLineChars: 500,
  prCounts: 100,
  upgradeAttempts: 100,
  baselines: 10,
  /** Test ids one cached baseline keeps (a larger baseline is not cached: it runs each time). */
  baselineIds: 5000,
  baselineIdChars: 300,
  text: 500
} as const
