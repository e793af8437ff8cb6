/** The methods of the bytes type (current go.starlark.net): elems(). */
import { defineMethods, type MethodFn } from "../attrs.js";
import type { StarBytes } from "../bytes.js";
import { positional } from "./common.js";
import { StringElems } from "./string-iterables.js";

const methods: Record<string, MethodFn> = {
  elems: (_t, self, args, kwargs) => {
    positional("elems", args, kwargs, 0, 0);
    const view = new StringElems((self as StarBytes).data, true);
    view.bytesReceiver = true;
    return view;
  },
};

defineMethods("bytes", methods);
