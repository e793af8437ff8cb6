/**
 * Which members the cluster view shows, and under which headings: filters
 * (name, cluster group, trait, resource class, status) and grouping by
 * failure domain, cluster group or a member topology key. Pure, so it is tested without a browser
 * and runs once per change over 10,000 members.
 */
import type { ClusterMemberFull } from "@berth/api-types";

/** `topology.<name>`: by the value of a member topology key (topology.ts). */
export type GroupBy = "failure-domain" | "cluster-group" | "none" | `topology.${string}`;

export interface MemberFilter {
  /** Substring of the name (case-insensitive); "" matches all. */
  search: string;
  /** A cluster group the member must be in; "" for any. */
  group: string;
  /** A trait the member must have; "" for any. */
  trait: string;
  /** A resource class the member must have an inventory of; "" for any. */
  resourceClass: string;
  /** "" for any status. */
  status: "" | ClusterMemberFull["status"];
}

export const NO_FILTER: MemberFilter = { search: "", group: "", trait: "", resourceClass: "", status: "" };

export function matches(member: ClusterMemberFull, filter: MemberFilter): boolean {
  if (filter.search !== "" && !member.server_name.toLowerCase().includes(filter.search.toLowerCase()))
    return false;
  if (filter.group !== "" && !member.groups.includes(filter.group)) return false;
  if (filter.trait !== "" && !(member.traits ?? []).includes(filter.trait)) return false;
  if (filter.resourceClass !== "" && member.inventories[filter.resourceClass] === undefined) return false;
  if (filter.status !== "" && member.status !== filter.status) return false;
  return true;
}

export interface Section {
  /** The heading: a failure domain, a cluster group, or "" when not grouped. */
  title: string;
  members: ClusterMemberFull[];
}

/** A member without a failure domain or group is listed under this heading. */
export const UNASSIGNED = "(none)";

/**
 * Sections in heading order (names sorted, the unassigned last), members in
 * the server's order (join order) within each. A member in several cluster
 * groups appears under each.
 */
export function sectionsOf(members: readonly ClusterMemberFull[], groupBy: GroupBy): Section[] {
  if (groupBy === "none") return [{ title: "", members: [...members] }];
  const byTitle = new Map<string, ClusterMemberFull[]>();
  const add = (title: string, member: ClusterMemberFull) => {
    let list = byTitle.get(title);
    if (list === undefined) byTitle.set(title, (list = []));
    list.push(member);
  };
  for (const member of members) {
    if (groupBy === "failure-domain")
      add(member.failure_domain === "" ? UNASSIGNED : member.failure_domain, member);
    else if (groupBy !== "cluster-group") add(member.config[groupBy] || UNASSIGNED, member);
    else if (member.groups.length === 0) add(UNASSIGNED, member);
    else for (const group of member.groups) add(group, member);
  }
  const titles = [...byTitle.keys()].sort((a, b) => {
    if (a === UNASSIGNED) return 1;
    if (b === UNASSIGNED) return -1;
    return a.localeCompare(b, "en", { numeric: true });
  });
  return titles.map((title) => ({ title, members: byTitle.get(title)! }));
}

/** Every value of `pick` across members, sorted: the choices of a filter. */
export function choices(
  members: readonly ClusterMemberFull[],
  pick: (member: ClusterMemberFull) => readonly string[],
): string[] {
  const values = new Set<string>();
  for (const member of members) for (const value of pick(member)) values.add(value);
  return [...values].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** One row of the virtualised list: a section heading or a member. */
export type ListRow =
  | { kind: "heading"; title: string; count: number }
  | { kind: "member"; member: ClusterMemberFull };

export function rowsOf(sections: readonly Section[]): ListRow[] {
  const rows: ListRow[] = [];
  for (const section of sections) {
    if (section.title !== "")
      rows.push({ kind: "heading", title: section.title, count: section.members.length });
    for (const member of section.members) rows.push({ kind: "member", member });
  }
  return rows;
}
