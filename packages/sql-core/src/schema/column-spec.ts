import type { SQL } from "drizzle-orm";

/**
 * The storage kinds a column can have, named by what they hold rather than
 * by either dialect's type: each dialect's builder (sqlite-tables.ts,
 * pg-tables.ts) picks its own type for a kind.
 */
export type ColumnKind =
  /** Text. */
  | "text"
  /** A 32-bit integer (PostgreSQL `integer`; SQLite `integer`). */
  | "int"
  /** An integer that may pass 2^31 (PostgreSQL `bigint`, read as a JS number; SQLite `integer`). */
  | "int53"
  /** A float (PostgreSQL `double precision`; SQLite `real`). */
  | "real"
  /** A boolean (PostgreSQL `boolean`; SQLite `integer` 0/1). */
  | "bool"
  /** A JSON document (PostgreSQL `jsonb`; SQLite `text` holding JSON). */
  | "json"
  /** A growing integer key (PostgreSQL `bigserial`; SQLite `integer PRIMARY KEY AUTOINCREMENT`). */
  | "serial";

export type ReferentialAction = "cascade" | "restrict" | "no action" | "set null" | "set default";

export interface ReferenceSpec {
  /** A thunk, so a table may name itself or one declared after it. */
  readonly target: () => AnyColumnSpec;
  readonly onDelete?: ReferentialAction;
  readonly onUpdate?: ReferentialAction;
}

/** What a column says besides its kind; the builders read it. */
export interface ColumnTraits {
  notNull: boolean;
  primaryKey: boolean;
  unique: boolean;
  default?: unknown;
  enum?: readonly [string, ...string[]];
  references?: ReferenceSpec;
}

/**
 * One column, for both dialects. The type parameters carry what drizzle's
 * own builders carry (the JS type of a value, NOT NULL, a default, primary
 * key), so the tables built from a spec are typed as if written by hand.
 */
export class ColumnSpec<
  TKind extends ColumnKind = ColumnKind,
  TData = unknown,
  TNotNull extends boolean = boolean,
  THasDefault extends boolean = boolean,
  TPrimaryKey extends boolean = boolean,
> {
  declare readonly _types: {
    data: TData;
    notNull: TNotNull;
    hasDefault: THasDefault;
    primaryKey: TPrimaryKey;
  };
  readonly traits: ColumnTraits = { notNull: false, primaryKey: false, unique: false };

  constructor(
    readonly kind: TKind,
    readonly name: string,
  ) {}

  notNull(): ColumnSpec<TKind, TData, true, THasDefault, TPrimaryKey> {
    this.traits.notNull = true;
    return this as ColumnSpec<TKind, TData, true, THasDefault, TPrimaryKey>;
  }

  default(value: TData | SQL): ColumnSpec<TKind, TData, TNotNull, true, TPrimaryKey> {
    this.traits.default = value;
    return this as ColumnSpec<TKind, TData, TNotNull, true, TPrimaryKey>;
  }

  primaryKey(): ColumnSpec<TKind, TData, true, THasDefault, true> {
    this.traits.primaryKey = true;
    this.traits.notNull = true;
    return this as ColumnSpec<TKind, TData, true, THasDefault, true>;
  }

  unique(): this {
    this.traits.unique = true;
    return this;
  }

  references(target: () => AnyColumnSpec, actions: Omit<ReferenceSpec, "target"> = {}): this {
    this.traits.references = { target, ...actions };
    return this;
  }

  /** The JS type of the values (JSON documents, text enums): types only. */
  $type<T extends TData>(): ColumnSpec<TKind, T, TNotNull, THasDefault, TPrimaryKey> {
    return this as unknown as ColumnSpec<TKind, T, TNotNull, THasDefault, TPrimaryKey>;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: any spec, whatever its type parameters
export type AnyColumnSpec = ColumnSpec<ColumnKind, any, boolean, boolean, boolean>;

/** The column constructors the table description uses. */
export const column = {
  text: (name: string) => new ColumnSpec<"text", string, false, false, false>("text", name),
  /** Text limited (in TypeScript) to the given values; both dialects store plain text. */
  enum: <const E extends readonly [string, ...string[]]>(name: string, values: E) => {
    const spec = new ColumnSpec<"text", E[number], false, false, false>("text", name);
    spec.traits.enum = values;
    return spec;
  },
  int: (name: string) => new ColumnSpec<"int", number, false, false, false>("int", name),
  int53: (name: string) => new ColumnSpec<"int53", number, false, false, false>("int53", name),
  real: (name: string) => new ColumnSpec<"real", number, false, false, false>("real", name),
  bool: (name: string) => new ColumnSpec<"bool", boolean, false, false, false>("bool", name),
  json: <T>(name: string) => new ColumnSpec<"json", T, false, false, false>("json", name),
  serial: (name: string) => new ColumnSpec<"serial", number, true, true, true>("serial", name).primaryKey(),
};
