/**
 * Thread: the per-execution state (limits, step counter, call stack, thread locals, print hook).
 */
import { type Frame, LimitError } from "./errors.js";
import { decodeByteStringToUtf8 } from "./strings.js";

export interface Limits {
  /** Maximum number of evaluation steps (Infinity: unlimited). */
  maxSteps: number;
  /** Wall-clock deadline, epoch milliseconds (Infinity: none). */
  deadline: number;
  /** Cancels the execution when aborted. */
  signal: AbortSignal | undefined;
  /** Longest string/bytes value (in bytes) any operation may build. */
  maxStringLength: number;
  /** Largest list/tuple/dict/set any operation may build. */
  maxCollectionSize: number;
  /**
   * Total bytes the program may allocate over the whole run (Infinity: no budget), counted as it
   * allocates by the cost model of ALLOC: strings and bytes it builds, and the slots of the
   * lists, tuples, dicts and sets it creates or grows. Counts allocation, not what stays alive:
   * building and dropping a 1 MB string a thousand times costs 1 GB of budget.
   */
  maxAllocBytes: number;
}

/**
 * The allocation cost model behind Limits.maxAllocBytes, in bytes: a string or bytes value costs
 * its length plus `header`; a list or tuple `slot` per element plus `header`; a dict or set
 * `entry` per entry plus `header`. Growing a collection costs the slots or entries added.
 */
export const ALLOC = Object.freeze({ header: 16, slot: 8, entry: 16 });

/** Defaults keep a runaway script from exhausting the JS heap even with no limits configured. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxSteps: Number.POSITIVE_INFINITY,
  deadline: Number.POSITIVE_INFINITY,
  signal: undefined,
  maxStringLength: 1 << 28,
  maxCollectionSize: 1 << 25,
  maxAllocBytes: Number.POSITIVE_INFINITY,
});

export type PrintHook = (thread: Thread, msg: string) => void;

export interface ThreadOptions {
  name?: string;
  /** Receives print() output as a normal JS string (invalid UTF-8 shown as U+FFFD). */
  print?: PrintHook;
  /**
   * Receives print() output as a byte string (one byte per code unit, exactly the bytes the
   * program printed, as go.starlark.net passes them on); takes precedence over `print`.
   */
  printBytes?: PrintHook;
  limits?: Partial<Limits>;
}

/** How many steps pass between the (comparatively costly) clock and abort-signal checks. */
const TIME_CHECK_INTERVAL = 1024;

export class Thread {
  readonly name: string;
  /** Receives `print` output as a normal JS string. */
  print: PrintHook;
  /** Receives `print` output as a byte string, when set. */
  printBytes: PrintHook | undefined;
  readonly limits: Limits;
  /** Steps taken so far. */
  steps = 0;
  /** Calls of recursion-enabled Starlark functions in progress. */
  callDepth = 0;
  /** Bytes allocated so far, by the ALLOC cost model. */
  allocated = 0;
  /** limits.maxAllocBytes, held in a field for the allocation sites. */
  private readonly allocLimit: number;
  /**
   * Whether an allocation budget is set. Without one, `allocated` still counts what the
   * allocation sites charge cheaply, but sites that would loop to total many small values skip it.
   */
  readonly budgeted: boolean;
  /** Call stack, outermost first; pushed/popped by the evaluator. */
  readonly frames: Frame[] = [];
  private readonly locals = new Map<string, unknown>();
  private nextTimeCheck = TIME_CHECK_INTERVAL;

  constructor(opts: ThreadOptions = {}) {
    this.name = opts.name ?? "";
    this.print =
      opts.print ??
      ((_thread, msg) => {
        process.stderr.write(`${msg}\n`);
      });
    this.printBytes = opts.printBytes;
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.allocLimit = this.limits.maxAllocBytes;
    this.budgeted = this.allocLimit !== Number.POSITIVE_INFINITY;
  }

  /** Counts `bytes` allocated by the program; throws a "memory" LimitError past the budget. */
  alloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.allocLimit) this.allocExceeded();
  }

  private allocExceeded(): never {
    throw new LimitError("memory", `starlark: memory budget of ${this.limits.maxAllocBytes} bytes exceeded`);
  }

  /** Delivers the text of one print() call (a byte string) to the print hook. */
  emitPrint(bytes: string): void {
    if (this.printBytes !== undefined) this.printBytes(this, bytes);
    else this.print(this, decodeByteStringToUtf8(bytes));
  }

  setLocal(key: string, value: unknown): void {
    this.locals.set(key, value);
  }

  getLocal(key: string): unknown {
    return this.locals.get(key);
  }

  /** Counts n steps and throws a LimitError when a step, deadline or abort limit is hit. */
  checkStep(n = 1): void {
    this.steps += n;
    if (this.steps > this.limits.maxSteps) {
      throw new LimitError(
        "steps",
        `Starlark computation cancelled: too many steps (limit ${this.limits.maxSteps})`,
      );
    }
    if (this.steps >= this.nextTimeCheck) {
      this.nextTimeCheck = this.steps + TIME_CHECK_INTERVAL;
      this.checkCancelled();
    }
  }

  /** Checks the deadline and the abort signal right now. */
  checkCancelled(): void {
    const signal = this.limits.signal;
    if (signal?.aborted) {
      throw new LimitError("aborted", "Starlark computation cancelled: aborted");
    }
    if (this.limits.deadline !== Number.POSITIVE_INFINITY && Date.now() > this.limits.deadline) {
      throw new LimitError("deadline", "Starlark computation cancelled: deadline exceeded");
    }
  }

  /** Throws before a string/bytes of `length` bytes is built if that exceeds the limit. */
  checkStringLength(length: number): void {
    checkStringLength(this, length);
  }

  /** Throws before a collection of `size` elements is built if that exceeds the limit. */
  checkCollectionSize(size: number): void {
    checkCollectionSize(this, size);
  }

  /** Generic form: kind "string" (bytes) or "collection" (elements). */
  checkSize(kind: "string" | "collection", size: number): void {
    if (kind === "string") checkStringLength(this, size);
    else checkCollectionSize(this, size);
  }
}

/** Size checks usable with or without a thread (no thread: the default limits apply). */
export function checkStringLength(thread: Thread | undefined, length: number): void {
  const max = thread ? thread.limits.maxStringLength : DEFAULT_LIMITS.maxStringLength;
  if (length > max) {
    throw new LimitError("size", `string too large: ${length} bytes exceeds the limit of ${max}`);
  }
}

export function checkCollectionSize(thread: Thread | undefined, size: number): void {
  const max = thread ? thread.limits.maxCollectionSize : DEFAULT_LIMITS.maxCollectionSize;
  if (size > max) {
    throw new LimitError("size", `collection too large: ${size} elements exceeds the limit of ${max}`);
  }
}

/** Charges a new string or bytes value of `length` bytes (checked against the size limit first). */
export function allocString(thread: Thread | undefined, length: number): void {
  checkStringLength(thread, length);
  thread?.alloc(ALLOC.header + length);
}

/** Charges a new list or tuple of `n` elements (checked against the size limit first). */
export function allocSlots(thread: Thread | undefined, n: number): void {
  checkCollectionSize(thread, n);
  thread?.alloc(ALLOC.header + ALLOC.slot * n);
}

/** Charges a new dict or set of `n` entries. */
export function allocEntries(thread: Thread | undefined, n: number): void {
  thread?.alloc(ALLOC.header + ALLOC.entry * n);
}
