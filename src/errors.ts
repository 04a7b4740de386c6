/** An input whose value loopgate does not accept: the run stops before anything is spent. */
export class ConfigError extends Error {
  constructor(
    readonly input: string,
    readonly value: string,
    readonly accepted: string,
    /** What `input` is: an action input, or an environment variable loopgate reads. */
    kind: 'Input' | 'The variable' = 'Input'
  ) {
    super(`${kind} '${input}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`)
    this.name = 'ConfigError'
  }
}
