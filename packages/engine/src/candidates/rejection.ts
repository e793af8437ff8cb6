/**
 * Why a member was not a candidate. Each feasibility filter has one reason to
 * reject and says it; rejections with the same `code` are grouped so the
 * final error reads "3 members lack CUSTOM_FPGA, 2 have too little MEMORY_MB".
 */
/** Who named the member: a new instance (create, bulk, reservation, commit) or a stored one moving (move, restore). */
export interface NamedBy {
  member: string;
  moving: boolean;
}

/**
 * What a path that named the member answers, in LXD/Incus's words where
 * they have them (kind `invalid` is their 400, `forbidden` their 403).
 */
export interface Refusal {
  kind: "invalid" | "forbidden";
  message: string;
}

export interface Rejection {
  /** Groups identical reasons (e.g. "capacity:MEMORY_MB"). */
  code: string;
  /** Verb phrase for one member: "lacks CUSTOM_FPGA". */
  one: string;
  /** Verb phrase for several: "lack CUSTOM_FPGA". */
  many: string;
  /** True when the member was turned down for resources (capacity/inventory), not policy. */
  capacity: boolean;
  /**
   * The refusal when a path named this member, if LXD has words for it;
   * without one the path answers Berth's own (named-member.ts).
   */
  refusal?: (by: NamedBy) => Refusal;
}

export function rejection(
  code: string,
  one: string,
  many: string,
  capacity = false,
  refusal?: (by: NamedBy) => Refusal,
): Rejection {
  return refusal === undefined ? { code, one, many, capacity } : { code, one, many, capacity, refusal };
}

export interface RejectionSummary {
  code: string;
  count: number;
  members: string[];
  text: string;
  capacity: boolean;
}

/** "1 member lacks CUSTOM_FPGA", "3 members have too little MEMORY_MB". */
export function countedText(why: Rejection, count: number): string {
  return count === 1 ? `1 member ${why.one}` : `${count} members ${why.many}`;
}

/** Groups rejections by code, most frequent first (ties keep first-seen order). */
export function summarizeRejections(
  rejected: { member: string; rejection: Rejection }[],
): RejectionSummary[] {
  const byCode = new Map<string, { rejection: Rejection; members: string[] }>();
  for (const { member, rejection: why } of rejected) {
    const entry = byCode.get(why.code);
    if (entry === undefined) byCode.set(why.code, { rejection: why, members: [member] });
    else entry.members.push(member);
  }
  return [...byCode.values()]
    .map(({ rejection: why, members }) => ({
      code: why.code,
      count: members.length,
      members,
      capacity: why.capacity,
      text: countedText(why, members.length),
    }))
    .sort((a, b) => b.count - a.count);
}

/**
 * "3 members lack CUSTOM_FPGA, 2 have too little MEMORY_MB": the noun is said
 * once, on the first (most frequent) reason.
 */
export function describeRejections(summaries: RejectionSummary[]): string {
  return summaries
    .map((summary, index) => (index === 0 ? summary.text : summary.text.replace(/^(\d+) members? /, "$1 ")))
    .join(", ");
}
