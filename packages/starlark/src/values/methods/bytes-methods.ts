/** The methods of the bytes type (current go.starlark.net): elems(). */
import { defineMethods, type MethodFn } from "../attrs.js";
import type { StarBytes } from "../bytes.js";
import { checkPositionalArgs } from "../unpack.js";
import { BytesElems } from "./string-iterables.js";

const methods: Record<string, MethodFn> = {
  elems: (_t, self, args, kwargs) => {
    checkPositionalArgs("elems", args, kwargs, 0, 0);
    return new BytesElems((self as StarBytes).data);
  },
};

defineMethods("bytes", methods);
