import { decodeByteStringToUtf8, encodeUtf8ToByteString } from "./strings.js";
import type { StarValue } from "./value.js";

/** Immutable byte sequence; `data` is a byte string (one byte per code unit). */
export class StarBytes implements StarValue {
  readonly type = "bytes";
  constructor(readonly data: string) {}
  freeze(): void {}
  truth(): boolean {
    return this.data.length > 0;
  }
  hash(): number {
    let h = 0;
    for (let i = 0; i < this.data.length; i++) h = (Math.imul(h, 31) + this.data.charCodeAt(i)) | 0;
    return h ^ 0x5bd1e995;
  }
  len(): number {
    return this.data.length;
  }
  /** str(b): the bytes decoded as UTF-8, invalid sequences replaced by U+FFFD. */
  str(): string {
    return encodeUtf8ToByteString(decodeByteStringToUtf8(this.data));
  }
}
