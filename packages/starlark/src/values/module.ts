import { StarEvalError } from "./errors.js";
import type { StarValue, Value } from "./value.js";

/** A named, immutable bag of members (like go.starlark.net's starlarkstruct.Module). */
export class StarModule implements StarValue {
  readonly type = "module";
  constructor(
    readonly name: string,
    readonly members: ReadonlyMap<string, Value>,
  ) {}
  freeze(): void {
    for (const v of this.members.values()) if (typeof v === "object") v.freeze();
  }
  truth(): boolean {
    return true;
  }
  hash(): number {
    throw new StarEvalError("unhashable: module");
  }
  repr(): string {
    return `<module "${this.name}">`;
  }
  attrNames(): string[] {
    return [...this.members.keys()].sort();
  }
  getAttr(name: string): Value | undefined {
    return this.members.get(name);
  }
}
