import { nearest } from "../spell/spell.js";
import type { Binding, Expr, FileNode, FunctionNode, Ident, Stmt } from "../syntax/ast.js";
import { newFunctionNode } from "../syntax/ast.js";
import type { Position, SyntaxErrorEntry } from "../syntax/position.js";
import type { ResolvedDialect } from "./dialect.js";

/** A use of a name, resolved when its enclosing blocks are complete. */
interface Use {
  readonly id: Ident;
  readonly env: Block;
}

/** A lexical block: the file, a function body, or a comprehension. */
class Block {
  readonly bindings = new Map<string, Binding>();
  readonly children: Block[] = [];
  uses: Use[] = [];
  constructor(
    readonly parent: Block | undefined,
    /** Set for function blocks (and the file's top-level pseudo-function). */
    readonly fn: FunctionNode | undefined,
    readonly isFile = false,
  ) {
    parent?.children.push(this);
  }
}

export interface ResolveEnvironment {
  isPredeclared(name: string): boolean;
  isUniversal(name: string): boolean;
}

const ASSIGN_TARGET_NAMES: Record<string, string> = {
  Literal: "literal",
  Binary: "binaryexpr",
  Call: "callexpr",
  Unary: "unaryexpr",
  Dict: "dictexpr",
  Comprehension: "comprehension",
  Cond: "condexpr",
  Lambda: "lambdaexpr",
  Slice: "sliceexpr",
};

/**
 * Resolves every identifier of the file to a binding (local, cell, free, global,
 * predeclared or universal), assigns frame slots, and reports the spec's static errors.
 * Returns all errors found (an empty list means success).
 */
export function resolveFile(
  file: FileNode,
  env: ResolveEnvironment,
  dialect: ResolvedDialect,
): SyntaxErrorEntry[] {
  const r = new Resolver(file.filename, env, dialect);
  return r.resolve(file);
}

class Resolver {
  private readonly errors: SyntaxErrorEntry[] = [];
  private readonly toplevel: FunctionNode = newFunctionNode({ line: 1, col: 1 }, "<toplevel>", [], []);
  private readonly file = new Block(undefined, undefined, true);
  private envBlock: Block = this.file;
  private readonly globals = new Map<string, Binding>();
  private readonly moduleGlobals: Binding[] = [];
  private readonly predeclared = new Map<string, Binding>();
  private loops = 0;
  private ifs = 0;

  constructor(
    private readonly filename: string,
    private readonly env: ResolveEnvironment,
    private readonly dialect: ResolvedDialect,
  ) {}

  resolve(file: FileNode): SyntaxErrorEntry[] {
    this.stmts(file.stmts);
    this.resolveLocalUses(this.file);
    this.resolveNonLocalUses(this.file);
    file.toplevel = this.toplevel;
    file.globals = this.moduleGlobals;
    // In upstream's order (the order the resolver meets them, uses of names declared later
    // resolved at the end): hosts and the starlark command report the first one.
    return this.errors;
  }

  private errorf(pos: Position, msg: string): void {
    this.errors.push({ filename: this.filename, line: pos.line, col: pos.col, msg });
  }

  private fmtPos(pos: Position): string {
    return `${this.filename}:${pos.line}:${pos.col}`;
  }

  /** The innermost function (or file) block enclosing the current block. */
  private container(): Block {
    let b: Block | undefined = this.envBlock;
    while (b !== undefined && b.fn === undefined && !b.isFile) b = b.parent;
    return b ?? this.file;
  }

  private inFunction(): boolean {
    return !this.container().isFile;
  }

  private push(b: Block): void {
    this.envBlock = b;
  }

  private pop(): void {
    this.envBlock = this.envBlock.parent ?? this.file;
  }

  /** Binds a name in the current block; returns whether it was already bound there. */
  private bind(id: Ident): boolean {
    if (this.envBlock === this.file) {
      let bind = this.file.bindings.get(id.name);
      let existed = bind !== undefined;
      if (bind === undefined) {
        bind = this.globals.get(id.name);
        existed = bind !== undefined;
        if (bind === undefined) {
          bind = { scope: "global", index: this.moduleGlobals.length, first: id, name: id.name };
          this.globals.set(id.name, bind);
          this.moduleGlobals.push(bind);
        }
      }
      if (existed && !this.dialect.globalReassign) {
        const where = bind.first ? this.fmtPos(bind.first.pos) : "<predeclared>";
        this.errorf(id.pos, `cannot reassign ${bind.scope} ${id.name} declared at ${where}`);
      }
      id.binding = bind;
      return existed;
    }
    return this.bindLocal(id);
  }

  private bindLocal(id: Ident): boolean {
    const existed = this.envBlock.bindings.has(id.name);
    if (!existed) {
      const c = this.container();
      const locals = c.isFile ? this.toplevel.locals : (c.fn as FunctionNode).locals;
      const bind: Binding = { scope: "local", index: locals.length, first: id, name: id.name };
      this.envBlock.bindings.set(id.name, bind);
      locals.push(bind);
    }
    this.use(id);
    return existed;
  }

  private use(id: Ident): void {
    const use = { id, env: this.envBlock };
    // With globalReassign, a top-level use must follow the definition (legacy semantics).
    if (this.dialect.globalReassign && this.envBlock === this.file) {
      this.useToplevel(use);
      return;
    }
    this.container().uses.push(use);
  }

  private useToplevel(use: Use): Binding {
    const id = use.id;
    const name = id.name;
    let bind = this.file.bindings.get(name) ?? this.globals.get(name) ?? this.predeclared.get(name);
    if (bind === undefined) {
      if (this.env.isPredeclared(name)) {
        bind = { scope: "predeclared", index: -1, first: undefined, name };
        this.predeclared.set(name, bind);
      } else if (this.env.isUniversal(name) || name === "set") {
        if (name === "set" && !this.dialect.set) {
          this.errorf(id.pos, "this Starlark dialect does not support sets");
        }
        bind = { scope: "universal", index: -1, first: undefined, name };
        this.predeclared.set(name, bind);
      } else {
        const hint = this.spellcheck(use);
        this.errorf(id.pos, `undefined: ${name}${hint === undefined ? "" : ` (did you mean ${hint}?)`}`);
        bind = { scope: "universal", index: -1, first: undefined, name };
      }
    }
    id.binding = bind;
    return bind;
  }

  private spellcheck(use: Use): string | undefined {
    const names: string[] = [];
    for (let b: Block | undefined = use.env; b !== undefined; b = b.parent) names.push(...b.bindings.keys());
    for (const g of this.moduleGlobals) names.push(g.name);
    // Sorted, as upstream's resolver does: among equally near names the first in byte order wins.
    return nearest(use.id.name, names.sort());
  }

  private stmts(stmts: Stmt[]): void {
    for (const s of stmts) this.stmt(s);
  }

  private checkTopLevelControl(pos: Position, what: string): void {
    if (!this.dialect.topLevelControl && !this.inFunction())
      this.errorf(pos, `${what} not within a function`);
  }

  private stmt(s: Stmt): void {
    switch (s.kind) {
      case "ExprStmt":
        this.expr(s.x);
        return;
      case "Branch":
        if (s.token !== "pass" && this.loops === 0) this.errorf(s.pos, `${s.token} not in a loop`);
        return;
      case "If":
        this.checkTopLevelControl(s.pos, "if statement");
        this.expr(s.cond);
        this.ifs++;
        this.stmts(s.then);
        this.stmts(s.else);
        this.ifs--;
        return;
      case "Assign":
        this.expr(s.rhs);
        this.assign(s.lhs, s.op !== "=");
        return;
      case "Def":
        this.bind(s.name);
        this.func(s.fn);
        return;
      case "For":
        this.checkTopLevelControl(s.pos, "for loop");
        this.expr(s.x);
        this.assign(s.vars, false);
        this.loops++;
        this.stmts(s.body);
        this.loops--;
        return;
      case "While":
        if (!this.dialect.while) this.errorf(s.pos, "this Starlark dialect does not support while loops");
        this.checkTopLevelControl(s.pos, "while loop");
        this.expr(s.cond);
        this.loops++;
        this.stmts(s.body);
        this.loops--;
        return;
      case "Return":
        if (!this.inFunction()) this.errorf(s.pos, "return statement not within a function");
        if (s.result) this.expr(s.result);
        return;
      case "Load":
        if (this.inFunction()) this.errorf(s.pos, "load statement within a function");
        else if (this.loops > 0) this.errorf(s.pos, "load statement within a loop");
        else if (this.ifs > 0) this.errorf(s.pos, "load statement within a conditional");
        s.from.forEach((from, i) => {
          if (from.name === "") this.errorf(from.pos, "load: empty identifier");
          else if (from.name.startsWith("_")) {
            this.errorf(from.pos, `load: names with leading underscores are not exported: ${from.name}`);
          }
          const id = s.to[i] as Ident;
          if (this.dialect.loadBindsGlobally) this.bind(id);
          else if (this.bindLocal(id) && !this.dialect.globalReassign) {
            this.errorf(id.pos, `cannot reassign top-level ${id.name}`);
          }
        });
        return;
    }
  }

  private assign(lhs: Expr, augmented: boolean): void {
    switch (lhs.kind) {
      case "Ident":
        this.bind(lhs);
        return;
      case "Index":
        this.expr(lhs.x);
        this.expr(lhs.index);
        return;
      case "Dot":
        this.expr(lhs.x);
        return;
      case "Tuple":
      case "List":
        if (augmented) {
          this.errorf(
            lhs.pos,
            `can't use ${lhs.kind === "Tuple" ? "tuple" : "list"} expression in augmented assignment`,
          );
        }
        for (const e of lhs.elems) this.assign(e, augmented);
        return;
      case "Paren":
        this.assign(lhs.x, augmented);
        return;
      default:
        this.errorf(lhs.pos, `can't assign to ${ASSIGN_TARGET_NAMES[lhs.kind] ?? lhs.kind.toLowerCase()}`);
    }
  }

  private expr(e: Expr): void {
    switch (e.kind) {
      case "Ident":
        this.use(e);
        return;
      case "Literal":
        return;
      case "Paren":
        this.expr(e.x);
        return;
      case "List":
      case "Tuple":
        for (const x of e.elems) this.expr(x);
        return;
      case "Dict":
        for (const entry of e.entries) {
          this.expr(entry.key);
          this.expr(entry.value);
        }
        return;
      case "Unary":
        this.expr(e.x);
        return;
      case "Binary":
        this.expr(e.x);
        this.expr(e.y);
        return;
      case "Cond":
        this.expr(e.cond);
        this.expr(e.ifTrue);
        this.expr(e.ifFalse);
        return;
      case "Dot":
        this.expr(e.x);
        return;
      case "Index":
        this.expr(e.x);
        this.expr(e.index);
        return;
      case "Slice":
        this.expr(e.x);
        if (e.lo) this.expr(e.lo);
        if (e.hi) this.expr(e.hi);
        if (e.step) this.expr(e.step);
        return;
      case "Lambda":
        this.func(e.fn);
        return;
      case "Comprehension":
        this.comprehension(e);
        return;
      case "Call":
        this.call(e);
        return;
    }
  }

  private comprehension(e: Extract<Expr, { kind: "Comprehension" }>): void {
    const [first, ...rest] = e.clauses;
    // The operand of the first 'for' is resolved in the enclosing block: [x for x in x].
    if (first?.kind === "ForClause") this.expr(first.x);
    this.push(new Block(this.envBlock, undefined));
    if (first?.kind === "ForClause") this.assign(first.vars, false);
    for (const clause of rest) {
      if (clause.kind === "IfClause") this.expr(clause.cond);
      else {
        this.assign(clause.vars, false);
        this.expr(clause.x);
      }
    }
    if (e.body.kind === "DictEntry") {
      this.expr(e.body.key);
      this.expr(e.body.value);
    } else {
      this.expr(e.body);
    }
    this.pop();
  }

  private call(e: Extract<Expr, { kind: "Call" }>): void {
    this.expr(e.fn);
    let seenVarargs = false;
    let seenKwargs = false;
    const seenNames = new Set<string>();
    for (const arg of e.args) {
      switch (arg.kind) {
        case "starstar":
          if (seenKwargs) this.errorf(arg.pos, "multiple **kwargs not allowed");
          seenKwargs = true;
          break;
        case "star":
          if (seenKwargs) this.errorf(arg.pos, "*args may not follow **kwargs");
          else if (seenVarargs) this.errorf(arg.pos, "multiple *args not allowed");
          seenVarargs = true;
          break;
        case "named":
          if (seenKwargs) this.errorf(arg.pos, "keyword argument may not follow **kwargs");
          else if (seenVarargs) this.errorf(arg.pos, "keyword argument may not follow *args");
          if (seenNames.has(arg.name.name))
            this.errorf(arg.pos, `keyword argument "${arg.name.name}" is repeated`);
          seenNames.add(arg.name.name);
          break;
        case "positional":
          if (seenVarargs) this.errorf(arg.pos, "positional argument may not follow *args");
          else if (seenKwargs) this.errorf(arg.pos, "positional argument may not follow **kwargs");
          else if (seenNames.size > 0) this.errorf(arg.pos, "positional argument may not follow named");
          break;
      }
      this.expr(arg.value);
    }
    // go.starlark.net's compiler encodes argument counts in a byte.
    const positional = e.args.filter((a) => a.kind === "positional").length;
    const named = e.args.filter((a) => a.kind === "named").length;
    if (positional >= 256) this.errorf(e.pos, `${positional} positional arguments in call, limit is 255`);
    if (named >= 256) this.errorf(e.pos, `${named} keyword arguments in call, limit is 255`);
  }

  private func(fn: FunctionNode): void {
    // Defaults are evaluated in the enclosing environment.
    for (const p of fn.params) if (p.kind === "optional") this.expr(p.default);
    const block = new Block(this.envBlock, fn);
    this.push(block);
    const savedLoops = this.loops;
    const savedIfs = this.ifs;
    this.loops = 0;
    this.ifs = 0;

    let seenOptional = false;
    let star: Extract<FunctionNode["params"][number], { kind: "star" }> | undefined;
    let starStar: Ident | undefined;
    let numKwonly = 0;
    let numPositional = 0;
    for (const p of fn.params) {
      switch (p.kind) {
        case "required":
          if (starStar) this.errorf(p.name.pos, `required parameter may not follow **${starStar.name}`);
          else if (star) numKwonly++;
          else if (seenOptional) this.errorf(p.name.pos, "required parameter may not follow optional");
          if (!star) numPositional++;
          if (this.bind(p.name)) this.errorf(p.name.pos, `duplicate parameter: ${p.name.name}`);
          break;
        case "optional":
          if (starStar) this.errorf(p.pos, `optional parameter may not follow **${starStar.name}`);
          else if (star) numKwonly++;
          if (!star) numPositional++;
          if (this.bind(p.name)) this.errorf(p.pos, `duplicate parameter: ${p.name.name}`);
          seenOptional = true;
          break;
        case "star":
          if (starStar) this.errorf(p.pos, `* parameter may not follow **${starStar.name}`);
          else if (star) this.errorf(p.pos, "multiple * parameters not allowed");
          else star = p;
          break;
        case "starstar":
          if (starStar) this.errorf(p.pos, "multiple ** parameters not allowed");
          starStar = p.name;
          break;
      }
    }
    // *args and **kwargs get the slots after the ordinary parameters, so those stay contiguous.
    if (star) {
      if (star.name) {
        if (this.bind(star.name)) this.errorf(star.name.pos, `duplicate parameter: ${star.name.name}`);
        fn.hasVarargs = true;
      } else if (numKwonly === 0) {
        this.errorf(star.pos, "bare * must be followed by keyword-only parameters");
      }
    }
    if (starStar) {
      if (this.bind(starStar)) this.errorf(starStar.pos, `duplicate parameter: ${starStar.name}`);
      fn.hasKwargs = true;
    }
    fn.numKwonly = numKwonly;
    fn.numPositional = numPositional;

    this.stmts(fn.body);
    this.resolveLocalUses(block);
    this.pop();
    this.loops = savedLoops;
    this.ifs = savedIfs;
  }

  /** On leaving a function, resolve uses of its own locals; keep the rest for the end of the file. */
  private resolveLocalUses(b: Block): void {
    const unresolved: Use[] = [];
    for (const use of b.uses) {
      const bind = lookupLocal(use);
      if (bind !== undefined && (bind.scope === "local" || bind.scope === "cell")) use.id.binding = bind;
      else unresolved.push(use);
    }
    b.uses = unresolved;
  }

  private resolveNonLocalUses(b: Block): void {
    for (const child of b.children) this.resolveNonLocalUses(child);
    for (const use of b.uses) use.id.binding = this.lookupLexical(use, use.env);
  }

  private lookupLexical(use: Use, env: Block): Binding {
    if (env === this.file) return this.useToplevel(use);
    let bind = env.bindings.get(use.id.name);
    if (bind === undefined) {
      bind = this.lookupLexical(use, env.parent ?? this.file);
      if (
        env.fn !== undefined &&
        (bind.scope === "local" || bind.scope === "free" || bind.scope === "cell")
      ) {
        // Captured from an enclosing function: that local becomes a cell, and this
        // function gets a free variable referring to it.
        if (bind.scope === "local") bind.scope = "cell";
        const index = env.fn.freeVars.length;
        env.fn.freeVars.push(bind);
        bind = { scope: "free", index, first: bind.first, name: bind.name };
      }
      env.bindings.set(use.id.name, bind);
    }
    return bind;
  }
}

function lookupLocal(use: Use): Binding | undefined {
  for (let env: Block | undefined = use.env; env !== undefined; env = env.parent) {
    const bind = env.bindings.get(use.id.name);
    if (bind !== undefined) return bind;
    if (env.fn !== undefined || env.isFile) break;
  }
  return undefined;
}
