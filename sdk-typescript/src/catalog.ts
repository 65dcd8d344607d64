// Dynamic tool catalogs: revision 0 is the initialize catalog; every accepted tools/register or
// tools/unregister commits the next revision. Mutations are staged locally, published, and
// committed only on the host's acknowledgement, whose revision must be exactly previous+1.
// The last RETAINED_CATALOGS committed revisions stay callable, so a call pinned to the catalog the
// model saw runs that catalog's handler even after a replacement.
import { ProtocolError } from "./errors.js";
import { RETAINED_CATALOGS } from "./limits.js";

export type Catalog<E> = ReadonlyMap<string, E>;

export class CatalogHistory<E> {
  private readonly revisions = new Map<number, Catalog<E>>();
  private latest = 0;
  private staged: { revision: number; tools: Catalog<E> } | undefined;

  constructor(initial: Catalog<E>) {
    this.revisions.set(0, initial);
  }

  get revision(): number {
    return this.latest;
  }

  get current(): Catalog<E> {
    return this.revisions.get(this.latest)!;
  }

  /**
   * The catalog a call pinned to `revision` must use; undefined when the revision is unknown or
   * retired. The staged catalog is addressable while its publication awaits the host's ack.
   */
  at(revision: number | undefined): Catalog<E> | undefined {
    if (revision === undefined) return this.current;
    const committed = this.revisions.get(revision);
    if (committed !== undefined) return committed;
    if (this.staged !== undefined && this.staged.revision === revision) return this.staged.tools;
    return undefined;
  }

  /** Stage the next catalog; returns the revision the host must acknowledge. */
  stage(tools: Catalog<E>): number {
    if (this.staged !== undefined) throw new ProtocolError("a catalog mutation is already awaiting the host's acknowledgement");
    this.staged = { revision: this.latest + 1, tools };
    return this.staged.revision;
  }

  /** Drop the staged catalog (the host refused it or the call failed): nothing changes. */
  abort(): void {
    this.staged = undefined;
  }

  /** Commit the staged catalog as acknowledged: only host-accepted names are kept. */
  commit(ackRevision: number, accepted: readonly string[]): Catalog<E> {
    const staged = this.staged;
    this.staged = undefined;
    if (staged === undefined) throw new ProtocolError("no catalog mutation is staged");
    if (ackRevision !== staged.revision) {
      throw new ProtocolError(`host acknowledged catalog revision ${ackRevision}; expected exactly ${staged.revision} (previous + 1)`);
    }
    const keep = new Set(accepted);
    const next = new Map<string, E>();
    for (const [name, entry] of staged.tools) if (keep.has(name)) next.set(name, entry);
    this.latest = staged.revision;
    this.revisions.set(this.latest, next);
    this.revisions.delete(this.latest - RETAINED_CATALOGS);
    return next;
  }

  /** The revisions currently callable (for diagnostics and tests). */
  retained(): number[] {
    return [...this.revisions.keys()].sort((a, b) => a - b);
  }
}
