/**
 * Compiled programs by configuration version. Only the latest few versions
 * are kept: a server mostly runs the current scriptlet, and keeping one or
 * two older ones lets requests that started before a config change finish
 * without recompiling. The source is stored too, so a version number reused
 * with different text (a store reset, a test) never runs stale code.
 * The key is a version by default; the host also keeps one keyed by a hash of
 * the source for scriptlets that are not the configured one (dry runs of a
 * proposed scriptlet, validation).
 */
export class ProgramCache<P, K = number> {
  private readonly entries = new Map<K, { source: string; program: P }>();

  constructor(private readonly capacity = 4) {
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`ProgramCache capacity must be a positive integer, got ${capacity}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The program compiled for `version` from exactly `source`, if cached. */
  get(version: K, source: string): P | undefined {
    const entry = this.entries.get(version);
    if (entry === undefined || entry.source !== source) return undefined;
    // Refresh recency: Map iteration order is insertion order.
    this.entries.delete(version);
    this.entries.set(version, entry);
    return entry.program;
  }

  set(version: K, source: string, program: P): void {
    this.entries.delete(version);
    this.entries.set(version, { source, program });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  /** Returns the cached program or compiles, caches and returns a new one. */
  getOrCompile(version: K, source: string, compile: (source: string) => P): P {
    const cached = this.get(version, source);
    if (cached !== undefined) return cached;
    const program = compile(source);
    this.set(version, source, program);
    return program;
  }
}
