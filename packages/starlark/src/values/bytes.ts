import { fnv32 } from "./strings.js";
import type { StarValue } from "./value.js";

/** Immutable byte sequence; `data` is a byte string (one byte per code unit). */
export class StarBytes implements StarValue {
  readonly type = "bytes";
  constructor(readonly data: string) {}
  freeze(): void {}
  truth(): boolean {
    return this.data.length > 0;
  }
  /** go.starlark.net's Bytes.Hash is String.Hash of the same bytes; any hash of the bytes does. */
  hash(): number {
    return fnv32(this.data) | 0;
  }
  len(): number {
    return this.data.length;
  }
}
