/**
 * New instance ids: RFC 9562 UUID version 7 (48-bit Unix milliseconds, then
 * 74 random bits). Every store keys instances, their allocations and their
 * profile links by this id; with random (version 4) ids the creates that
 * share one commit each dirtied their own B-tree leaf in each of those
 * keys. Time-ordered ids put them on the rightmost leaf together, so a
 * commit writes fewer pages. Uniqueness rests on the random bits, as before.
 */
import { randomFillSync } from "node:crypto";

const bytes = new Uint8Array(16);

export function newInstanceId(now: number = Date.now()): string {
  randomFillSync(bytes, 6, 10);
  let ms = now;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70; // version 7
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC 9562 variant
  const hex = Buffer.from(bytes).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The default name of an unnamed instance: from the id's last 8 hex digits,
 * which are random. Its first 8 are the clock and repeat for about a minute.
 */
export function defaultInstanceName(id: string): string {
  return `instance-${id.slice(-8)}`;
}
