import type { $Type, ColumnBuilderBase, HasDefault, IsPrimaryKey, NotNull } from "drizzle-orm";
import type { ColumnKind, ColumnSpec } from "./column-spec.js";

/**
 * The type drizzle's own builder chain would have for a spec, given the
 * dialect's base builder for each kind: what keeps the built tables as well
 * typed as hand-written ones.
 */
export type BuilderOf<S, TBase extends Record<ColumnKind, ColumnBuilderBase>> =
  S extends ColumnSpec<infer K, infer D, infer NN, infer HD, infer PK>
    ? $Type<WithPrimaryKey<WithDefault<WithNotNull<TBase[K], NN>, HD>, PK>, D>
    : never;

type WithNotNull<B extends ColumnBuilderBase, F> = F extends true ? NotNull<B> : B;
type WithDefault<B extends ColumnBuilderBase, F> = F extends true ? HasDefault<B> : B;
type WithPrimaryKey<B extends ColumnBuilderBase, F> = F extends true ? IsPrimaryKey<B> : B;
