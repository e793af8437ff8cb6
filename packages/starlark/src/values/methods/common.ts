/** Small argument helpers shared by the method tables (go's UnpackPositionalArgs texts). */
import { StarEvalError } from "../errors.js";
import { typeName, type Value } from "../value.js";

export function positional(
  name: string,
  args: Value[],
  kwargs: [string, Value][],
  min: number,
  max: number,
): void {
  if (kwargs.length > 0) throw new StarEvalError(`${name}: unexpected keyword arguments`);
  if (args.length < min || args.length > max) {
    const quant = min === max ? "" : args.length < min ? "at least " : "at most ";
    throw new StarEvalError(
      `${name}: got ${args.length} arguments, want ${quant}${args.length < min ? min : max}`,
    );
  }
}

export function intArg(name: string, i: number, v: Value): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") throw new StarEvalError(`${name}: for parameter ${i}: ${v} out of range`);
  throw new StarEvalError(`${name}: for parameter ${i}: got ${typeName(v)}, want int`);
}
