import type { ProjectLimits } from "../store/port.js";
import type { ProjectRecord } from "../store/records.js";
import type { ExpandContext } from "./context.js";
import type { ExpandedRequest } from "./expand.js";

/**
 * Expansions of create bodies that outlive one request: one client sending
 * the same shape of body over and over (names aside) gets profiles merged
 * and sizes parsed once. An entry is valid only at the change-counter value
 * it was computed under (`ExpandContext.catalogEpoch`): any profile,
 * flavor, image or config write moves the counter and empties the cache.
 * Entries are shared between placements, so nothing may mutate them
 * (nothing does: records are copied by the store).
 */
export class ExpansionCache {
  private epoch: number | undefined;
  private readonly entries = new Map<string, ExpandedRequest>();

  /** Bounded: clients inventing a new body shape per request cannot grow it without limit. */
  constructor(private readonly maxEntries = 256) {}

  get(epoch: number | undefined, key: string): ExpandedRequest | undefined {
    return epoch !== undefined && epoch === this.epoch ? this.entries.get(key) : undefined;
  }

  set(epoch: number | undefined, key: string, expanded: ExpandedRequest): void {
    if (epoch === undefined) return;
    if (epoch !== this.epoch || this.entries.size >= this.maxEntries) {
      this.entries.clear();
      this.epoch = epoch;
    }
    this.entries.set(key, expanded);
  }
}

/** A project's parsed limits and the cluster groups it may use. */
export interface ProjectFacts {
  limits: ProjectLimits;
  allowedGroups: string[];
}

/** What placements derive from the catalog and keep across requests. */
export interface SharedDerivations {
  expansions: ExpansionCache;
  /**
   * By project record: the model replaces a project's record (never edits
   * it) when the project changes, so an entry can never outlive its source.
   */
  projectFacts: WeakMap<ProjectRecord, ProjectFacts>;
  /** Tells the epoch expansions are valid at. */
  context: ExpandContext;
}
