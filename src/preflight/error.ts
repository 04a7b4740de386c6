import { ConfigError } from '../errors.js'

/** A check before any spend that failed: a config-error whose message is the cause and the one fix. */
export class PreflightError extends ConfigError {
  constructor(input: string, message: string) {
    super(input, '', message)
    this.message = message
    this.name = 'PreflightError'
  }
}
