/**
 * The iterable views returned by str.elems(), elem_ords(), codepoints(), codepoint_ords() and
 * bytes.elems(), with go.starlark.net's type names ("string.elems", "string.codepoints",
 * "bytes.elems"): the string element views are also indexable and have a length.
 */
import { StarEvalError } from "../errors.js";
import { quoteString } from "../repr.js";
import { sequenceIndex } from "../sequence.js";
import { decodeRuneAt } from "../strings.js";
import type { StarIterator, StarValue, Value } from "../value.js";

/** What the views share: immutable, always true, unhashable; each says how it prints and iterates. */
abstract class View implements StarValue {
  abstract readonly type: string;
  freeze(): void {}
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError(`unhashable: ${this.type}`);
  }
  abstract repr(): string;
  abstract iterate(): StarIterator;
}

export class StringElems extends View {
  readonly type = "string.elems";
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {
    super();
  }
  repr(): string {
    return `${quoteString(this.s)}.${this.ords ? "elem_ords" : "elems"}()`;
  }
  len(): number {
    return this.s.length;
  }
  getIndex(key: Value): Value {
    const i = sequenceIndex(this.type, key, this.s.length, true);
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

/** bytes.elems(): the numeric values of the bytes; iterable only. */
export class BytesElems extends View {
  readonly type = "bytes.elems";
  constructor(readonly data: string) {
    super();
  }
  repr(): string {
    return `b${quoteString(this.data)}.elems()`;
  }
  iterate(): StarIterator {
    let i = 0;
    const s = this.data;
    return { next: () => (i < s.length ? s.charCodeAt(i++) : undefined), done: () => {} };
  }
}

export class StringCodepoints extends View {
  readonly type = "string.codepoints";
  constructor(
    readonly s: string,
    readonly ords: boolean,
  ) {
    super();
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
        // A byte that starts no valid UTF-8 sequence is U+FFFD, as text too.
        const v = ords ? rune : rune === 0xfffd ? "\xef\xbf\xbd" : s.slice(i, i + size);
        i += size;
        return v;
      },
      done: () => {},
    };
  }
}
