/** The Starlark library: universal builtins, argument unpacking, struct/gensym. */
export { DEFAULT_CONSTRUCTOR, gensymBuiltin, StarStruct, StarSymbol, structBuiltin } from "./struct.js";
export { setBuiltin, type UniverseDialect, universe } from "./universe.js";
export {
  type ParamRef,
  unpackArgs,
  unpackPositional,
  wantCallable,
  wantFloatOrInt,
  wantInt,
  wantSmallInt,
  wantString,
} from "./unpack.js";
