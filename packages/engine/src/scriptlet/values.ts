/** Small helpers over @berth/starlark values used across the scriptlet host. */
import type { Value } from "@berth/starlark";

/** The Starlark type name of a value, as error messages show it (`int`, `string`, `NoneType`, ...). */
export function typeNameOf(v: Value): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
    case "bigint":
      return "int";
    case "boolean":
      return "bool";
    default:
      return v.type;
  }
}
