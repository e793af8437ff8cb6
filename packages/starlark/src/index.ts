/**
 * @berth/starlark: a Starlark interpreter written from the specification, held to
 * go.starlark.net's behaviour and conformance tests, with no runtime dependencies.
 *
 * Compile once with `compile`, run with `program.init(thread, predeclared)`, call
 * functions with `call`. See README.md for the host API, dialect options and limits.
 */

export type { Loader } from "./eval/frame.js";
export { StarFunction } from "./eval/function.js";
export { type CompileOptions, type InitOptions, Module, Program } from "./eval/program.js";
export { call } from "./host/call.js";
export { compile } from "./host/compile.js";
export { fromStarlark, toStarlark } from "./host/convert.js";
export { repr, str } from "./host/format.js";
export { defineHostType, HostObject, type HostTypeSpec } from "./host/host-type.js";
export { jsonModule } from "./json/index.js";
export { universe } from "./library/universe.js";
export {
  type ParamRef,
  unpackArgs,
  unpackPositional,
  wantCallable,
  wantFloatOrInt,
  wantInt,
  wantSmallInt,
  wantString,
} from "./library/unpack.js";
export { mathModule } from "./math/index.js";
export type { Dialect } from "./resolve/dialect.js";
export { StarlarkSyntaxErrors, type SyntaxErrorEntry } from "./syntax/position.js";
export { StarDuration, StarTime, setTimeNow, timeModule } from "./time/index.js";
export {
  BUILTIN_FILENAME,
  Builtin,
  type BuiltinFn,
  type Callable,
  callValue,
  decodeByteStringToUtf8,
  EvalError,
  encodeUtf8ToByteString,
  type Frame,
  freeze,
  LimitError,
  type LimitKind,
  type Limits,
  None,
  NoSuchAttrError,
  type PrintHook,
  repr as reprBytes,
  StarBytes,
  StarDict,
  StarFloat,
  type StarIterator,
  StarList,
  StarlarkError,
  StarModule,
  StarSet,
  StarTuple,
  type StarValue,
  str as strBytes,
  Thread,
  type ThreadOptions,
  typeName,
  type Value,
} from "./values/index.js";

/** Package identity (kept for the workspace smoke tests). */
export const packageName = "@berth/starlark";
