/**
 * loopgate's own count of an agent's turns, read from its event stream while the call runs. The
 * CLI's own cap is a request to the CLI (it has been seen to leak); this count is the control:
 * once it passes max-turns + 1 the call's process group is killed.
 */
export class TurnWatchdog {
  private readonly seen = new Set<string>()
  private anonymous = 0
  private fired = false

  constructor(readonly maxTurns: number) {}

  /** Records one turn, identified by `key` when the stream repeats events for the same turn. */
  count(key?: string): void {
    if (key === undefined) this.anonymous++
    else this.seen.add(key)
  }

  get turns(): number {
    return this.seen.size + this.anonymous
  }

  /** The limit past which the call is killed: the CLI may legitimately report max-turns + 1. */
  get killAbove(): number {
    return this.maxTurns + 1
  }

  /** True once the count has passed the limit; the caller returns 'kill' to the process runner. */
  shouldKill(): boolean {
    if (this.turns > this.killAbove) this.fired = true
    return this.fired
  }

  get tripped(): boolean {
    return this.fired
  }
}
