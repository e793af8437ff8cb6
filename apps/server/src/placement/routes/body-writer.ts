/**
 * A large answer written from the front into one buffer, as UTF-8: text
 * piece by piece (each piece encoded where it lands), kept fragments copied
 * in. One text of the whole answer, joined first, costs a pass to flatten
 * its many pieces before it is encoded (0.24 ms of 0.55 for the full
 * candidates list's 140 KB of requests, in-process, 2026-11-29).
 */
export class BodyWriter {
  private bytes: Buffer;
  private length = 0;

  /** `capacity`: the expected size; a piece that does not fit grows the buffer (one copy). */
  constructor(capacity: number) {
    this.bytes = Buffer.allocUnsafe(Math.max(capacity, 64));
  }

  private room(more: number): void {
    if (this.length + more <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.length + more, this.bytes.length * 2));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** Text, encoded as UTF-8. */
  text(piece: string): void {
    // Three bytes per UTF-16 unit at most; measured exactly only near the end of the buffer.
    if (this.length + piece.length * 3 > this.bytes.length) this.room(Buffer.byteLength(piece));
    this.length += this.bytes.write(piece, this.length);
  }

  /** One byte (an ASCII character: punctuation between fragments). */
  byte(code: number): void {
    this.room(1);
    this.bytes[this.length++] = code;
  }

  /** Bytes already encoded (a kept fragment). */
  copy(fragment: Uint8Array): void {
    this.room(fragment.length);
    this.bytes.set(fragment, this.length);
    this.length += fragment.length;
  }

  /** What was written: a view of the buffer, not a copy. */
  done(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}
