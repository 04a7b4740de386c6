import type { GateRepository } from '../../git/gate-repository.js'

/**
 * The gate repository's objects, read with the last answer kept: `<commit>:<folder>` names one tree
 * for good when the commit is an object id, so the scrub after a gate run and the next checkout,
 * which look at the same folders (the root, made dirty by the runner folders), read it once.
 */
export class TreeReads {
  private last: { specs: string; data: Promise<Buffer> } | null = null

  constructor(private readonly repository: GateRepository) {}

  read(specs: string[]): Promise<Buffer> {
    const key = specs.join('\n')
    if (this.last?.specs === key) return this.last.data
    const data = this.repository.readObjects(specs)
    if (!specs.every((s) => /^[0-9a-f]{40,64}:/.test(s))) return data
    this.last = { specs: key, data }
    // An answer that names a missing object (or failed) is asked again next time.
    const forget = (): void => {
      if (this.last?.data === data) this.last = null
    }
    data.then((out) => (out.includes(' missing\n') ? forget() : undefined), forget)
    return data
  }
}
