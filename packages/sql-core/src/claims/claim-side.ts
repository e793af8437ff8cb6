import {
  type CheckedClaim,
  type Claim,
  type ClaimOutcome,
  type ClaimReads,
  type ClaimResult,
  type ClaimRows,
  checkClaim,
  checkClaimsInTurn,
  claimReads,
  claimResultOf,
  type InstanceRecord,
  nameKey,
  type ProjectTotals,
  type ProviderRows,
  projectTotalsToRead,
  providersToRead,
  zeroProjectTotals,
} from "@berth/engine";
import { projectTotalsOf } from "../rows/provider-tuples.js";
import type { SqlRow } from "../runner/runner.js";

/** Which new ids are taken, who holds the names, which projects exist. */
export type Existing = Pick<ClaimRows, "takenIds" | "nameHolders" | "projects">;

/** The rows of the providers a claim names (those that exist), with their row ids. */
export interface ClaimProviders {
  providers: Map<string, ProviderRows>;
  memberIds: Map<string, number>;
}

/**
 * How one adapter reads and writes what a claim touches, inside the claim's
 * write transaction (its statements, locks and round trips). The order of
 * the reads and the rules are the same in both stores: `applyClaim`.
 */
export interface ClaimSide {
  /** The current versions of the instances a claim removes or replaces (locked where rows lock). */
  instances(ids: readonly string[]): Promise<Map<string, InstanceRecord>>;
  /** What the claim's new records look up (`Existing`) and the providers it names (`memberNames`). */
  lookUp(claim: Claim, reads: ClaimReads, memberNames: readonly string[]): Promise<Existing & ClaimProviders>;
  /** Limit counters of the named projects (zero for a project with none yet). */
  projectTotals(projects: readonly string[]): Promise<Map<string, ProjectTotals>>;
  /** Writes a checked claim; `memberIds` maps every provider it names to its row. */
  write(checked: CheckedClaim, memberIds: ReadonlyMap<string, number>): Promise<void>;
}

/**
 * One claim: the rows it touches read (`claimReads` first, then what the
 * current instances say), checked by the engine's claim rules, and written.
 * A refusal throws before anything is written; `onChecked` is told the
 * answer before the write (a COMMIT whose outcome is lost).
 */
export async function applyClaim(
  side: ClaimSide,
  claim: Claim,
  onChecked?: (result: ClaimResult) => void,
): Promise<ClaimResult> {
  const reads = claimReads(claim);
  const instances = await side.instances(reads.instanceIds);
  const { providers, memberIds, ...existing } = await side.lookUp(
    claim,
    reads,
    providersToRead(claim, instances),
  );
  const projectTotals = await side.projectTotals(projectTotalsToRead(claim, instances));
  const checked = checkClaim(claim, { instances, ...existing, providers, projectTotals });
  const result = claimResultOf(checked);
  onChecked?.(result);
  await side.write(checked, memberIds);
  return result;
}

/** A claim waiting for its group commit, and how to answer it. */
export interface QueuedClaim {
  claim: Claim;
  resolve(result: ClaimResult): void;
  reject(error: unknown): void;
}

/** Claims waiting for their group commit, taken as one batch. */
export class ClaimQueue {
  #waiting: QueuedClaim[] = [];

  get length(): number {
    return this.#waiting.length;
  }

  /** The claim's answer, once the batch that takes it is settled. */
  add(claim: Claim): Promise<ClaimResult> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ claim, resolve, reject });
    });
  }

  /** Everything waiting so far; claims added later wait for the next batch. */
  take(): QueuedClaim[] {
    const batch = this.#waiting;
    this.#waiting = [];
    return batch;
  }
}

/** Answers each claim of a batch with its outcome (in the same order). */
export function settleClaims(batch: readonly QueuedClaim[], outcomes: readonly ClaimOutcome[]): void {
  batch.forEach((queued, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) queued.resolve(outcome.result);
    else queued.reject(outcome.error);
  });
}

/** A create-only claim removes and replaces nothing, so reads no instances. */
const NO_INSTANCES: ReadonlyMap<string, InstanceRecord> = new Map();

/**
 * Create-only claims of one group commit, applied as if one after another
 * with the reads of one: what all of them touch is read once, checked by
 * the engine's `checkClaimsInTurn`, and the accepted ones written together.
 * Anything thrown but a claim's refusal fails the whole batch.
 */
export async function applyCreateClaims(side: ClaimSide, claims: readonly Claim[]): Promise<ClaimOutcome[]> {
  const all: Claim = { create: claims.flatMap((claim) => claim.create ?? []) };
  const { providers, memberIds, ...existing } = await side.lookUp(
    all,
    claimReads(all),
    providersToRead(all, NO_INSTANCES),
  );
  const projectTotals = await side.projectTotals([
    ...new Set(claims.flatMap((claim) => projectTotalsToRead(claim, NO_INSTANCES))),
  ]);
  const { outcomes, write } = checkClaimsInTurn(claims, {
    instances: new Map(),
    ...existing,
    providers,
    projectTotals,
  });
  if (write !== undefined) await side.write(write, memberIds);
  return outcomes;
}

/**
 * The rows of a claim's look-up statement, one per finding by `kind`: 'id'
 * (`id` taken), 'name' (`id` holds `project`/`name`), 'project' (exists)
 * and, where rows lock, 'member' (`id`, `name` locked) and 'provider' (uuid
 * `id` locked).
 */
export function lookUpRowsOf(rows: readonly SqlRow[]): {
  existing: Existing;
  lockedMembers: { id: number; name: string }[];
  lockedProviders: string[];
} {
  const existing: Existing = { takenIds: new Set(), nameHolders: new Map(), projects: new Set() };
  const lockedMembers: { id: number; name: string }[] = [];
  const lockedProviders: string[] = [];
  for (const row of rows) {
    if (row.kind === "id") existing.takenIds.add(String(row.id));
    else if (row.kind === "name")
      existing.nameHolders.set(nameKey(String(row.project), String(row.name)), String(row.id));
    else if (row.kind === "project") existing.projects.add(String(row.project));
    else if (row.kind === "member") lockedMembers.push({ id: Number(row.id), name: String(row.name) });
    else if (row.kind === "provider") lockedProviders.push(String(row.id));
  }
  return { existing, lockedMembers, lockedProviders };
}

/** Limit counters of `projects` from their `project_usage` rows (zero for a project with none yet). */
export function projectTotalsFrom(
  projects: readonly string[],
  rows: readonly SqlRow[],
): Map<string, ProjectTotals> {
  const totals = new Map<string, ProjectTotals>();
  for (const project of projects) totals.set(project, zeroProjectTotals());
  for (const row of rows) totals.set(String(row.project), projectTotalsOf(row));
  return totals;
}
