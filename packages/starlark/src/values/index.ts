/**
 * The Starlark runtime: value representation, operations, errors and Thread.
 * This is the contract the evaluator (src/eval) and hosts build on.
 */
import "./percent.js";
import "./methods/index.js";

export {
  attrNames,
  callMethod,
  defineMethods,
  getAttr,
  type MethodFn,
  methodOf,
  NoSuchAttrError,
  setField,
  tryGetAttr,
} from "./attrs.js";
export { StarBytes } from "./bytes.js";
export { dictFromEntries, dictFromLiteral, MAX_LITERAL_DICT_KEYS, StarDict } from "./dict.js";
export {
  addBuiltinFrame,
  BUILTIN_FILENAME,
  EvalError,
  evalError,
  type Frame,
  LimitError,
  type LimitKind,
  type Position,
  StarEvalError,
  StarlarkError,
} from "./errors.js";
export { formatFloatE, formatFloatF, formatFloatG } from "./float-format.js";
export {
  compareIntFloat,
  floatCompare,
  floatToInt,
  type Int,
  intToFloat,
  toBig,
} from "./int.js";
export { EMPTY_TUPLE, StarList, StarTuple } from "./list.js";
export { StarModule } from "./module.js";
export {
  augmentedBinary,
  binary,
  compare,
  compareDepth,
  compareForSort,
  equals,
  freeze,
  getIndex,
  hashString,
  hashValue,
  inOperator,
  iterableToArray,
  iterableView,
  iterate,
  len,
  setIndex,
  slice,
  sliceIndices,
  truth,
  tryIterate,
  unary,
} from "./ops.js";
export { percentFormat } from "./percent.js";
export { isRange, makeRange, StarBigRange, StarRange } from "./range.js";
export { quoteString, repr, str } from "./repr.js";
export { StarSet } from "./set.js";
export {
  byteStringToBytes,
  bytesToByteString,
  decodeByteStringToUtf8,
  decodeRuneAt,
  encodeUtf8ToByteString,
  flatten,
  runeToByteString,
} from "./strings.js";
export {
  ALLOC,
  allocEntries,
  allocSlots,
  allocString,
  checkCollectionSize,
  checkStringLength,
  DEFAULT_LIMITS,
  type Limits,
  type PrintHook,
  Thread,
  type ThreadOptions,
} from "./thread.js";
export {
  type BinaryOp,
  Builtin,
  type BuiltinFn,
  type Callable,
  type CompareOp,
  callValue,
  isCallable,
  isInt,
  isStarValue,
  None,
  NoneType,
  normInt,
  StarFloat,
  type StarIterator,
  type StarValue,
  typeName,
  type UnaryOp,
  type Value,
} from "./value.js";
