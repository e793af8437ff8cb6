/** The iterable views returned by str.elems(), elem_ords(), codepoints(), codepoint_ords(). */
import { StarEvalError } from "../errors.js";
import { quoteString } from "../repr.js";
import { decodeRuneAt } from "../strings.js";
import type { StarIterator, StarValue, Value } from "../value.js";

export class StringElems implements StarValue {
  readonly type = "elems";
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {}
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError("unhashable: elems");
  }
  /** Set for bytes.elems(): the receiver prints as a bytes literal. */
  bytesReceiver = false;
  repr(): string {
    if (this.bytesReceiver) return `b${quoteString(this.s)}.elems()`;
    return `${quoteString(this.s)}.${this.ords ? "elem_ords" : "elems"}()`;
  }
  len(): number {
    return this.s.length;
  }
  getIndex(key: Value): Value {
    if (typeof key !== "number") throw new StarEvalError(`elems index: got ${typeof key}, want int`);
    const i = key < 0 ? key + this.s.length : key;
    if (i < 0 || i >= this.s.length)
      throw new StarEvalError(`index ${key} out of range [${-this.s.length}:${this.s.length - 1}]`);
    return this.ords ? this.s.charCodeAt(i) : (this.s[i] as string);
  }
  iterate(): StarIterator {
    let i = 0;
    const { s, ords } = this;
    return {
      next: () => (i < s.length ? (ords ? s.charCodeAt(i++) : (s[i++] as string)) : undefined),
      done: () => {},
    };
  }
}

export class StringCodepoints implements StarValue {
  readonly type = "codepoints";
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {}
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError("unhashable: codepoints");
  }
  repr(): string {
    return `${quoteString(this.s)}.${this.ords ? "codepoint_ords" : "codepoints"}()`;
  }
  iterate(): StarIterator {
    let i = 0;
    const { s, ords } = this;
    return {
      next: () => {
        if (i >= s.length) return undefined;
        const { rune, size } = decodeRuneAt(s, i);
        const v = ords ? rune : s.slice(i, i + size);
        i += size;
        return v;
      },
      done: () => {},
    };
  }
}
