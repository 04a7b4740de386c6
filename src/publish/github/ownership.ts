import { marker } from '../body-parts.js'
import type { GitHubClient } from '../../github/client.js'
import { tokenLogin } from '../../github/identity.js'

/** What the API says of an issue or pull request, as far as ownership goes. */
interface Authored {
  number: number
  user?: { login?: string | null } | null
  body?: string | null
}

/** Whether the body opens with this loop's marker line (as every body loopgate writes does). */
export function hasMarkerLine(body: string | null | undefined, loopId: string): boolean {
  const first = (body ?? '').split('\n', 1)[0].replace(/\r$/, '')
  return first === marker(loopId)
}

/** The loop, the numbers its state records, and the API that tells the token's own identity. */
interface OwnershipFacts {
  client: GitHubClient
  loopId: string
  recorded: readonly number[]
  warn: (message: string) => void
}

/**
 * Decides which issues and pull requests are this loop's own: a number recorded in the loop's
 * state, or one opened by the token's own identity whose body opens with the loop's marker line.
 * Never another author's, whatever its body carries. The identity is asked once, when first needed.
 */
export class Ownership {
  private login: Promise<string | null> | undefined

  private readonly client: GitHubClient
  private readonly loopId: string
  private readonly recorded: readonly number[]
  private readonly warn: (message: string) => void

  constructor({ client, loopId, recorded, warn }: OwnershipFacts) {
    this.client = client
    this.loopId = loopId
    this.recorded = recorded
    this.warn = warn
  }

  isRecorded(number: number): boolean {
    return this.recorded.includes(number)
  }

  async isOwn(item: Authored): Promise<boolean> {
    return this.isRecorded(item.number) || this.isOwnComment(item)
  }

  /** Whether a body (an issue's, a pull request's, a comment's) is this loop's own: written by the token's own identity, opening with the loop's marker line. */
  async isOwnComment(comment: { body?: string | null; user?: { login?: string | null } | null }): Promise<boolean> {
    if (!hasMarkerLine(comment.body, this.loopId)) return false
    const author = comment.user?.login
    if (!author) return false
    this.login ??= tokenLogin(this.client, this.warn)
    const own = await this.login
    return own !== null && own.toLowerCase() === author.toLowerCase()
  }

  /** The first of `items` that is this loop's own (recorded numbers first). */
  async findOwn<T extends Authored>(items: T[]): Promise<T | undefined> {
    const recorded = items.find((i) => this.isRecorded(i.number))
    if (recorded) return recorded
    for (const item of items) if (await this.isOwn(item)) return item
    return undefined
  }
}
