/** An input whose value loopgate does not accept: the run stops before anything is spent. */
export class ConfigError extends Error {
  constructor(
    readonly input: string,
    readonly value: string,
    readonly accepted: string
  ) {
    super(`Input '${input}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`)
    this.name = 'ConfigError'
  }
}

/** A value of an environment variable loopgate reads that it does not accept: stopped the same way. */
export class VariableConfigError extends ConfigError {
  constructor(variable: string, value: string, accepted: string) {
    super(variable, value, accepted)
    this.message = `The variable '${variable}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`
  }
}
