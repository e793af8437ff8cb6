import type {
  Arg,
  AssignOp,
  BinaryOp,
  DictEntry,
  Expr,
  FileNode,
  ForClause,
  Ident,
  IfClause,
  LoadStmt,
  Param,
  Stmt,
} from "./ast.js";
import { newFunctionNode } from "./ast.js";
import { internString } from "./intern.js";
import { ParseAbort, type Position, StarlarkSyntaxErrors } from "./position.js";
import { Scanner } from "./scanner.js";
import { describeToken, type Token, type TokenKind } from "./tokens.js";

/** Deepest bracket/unary/block nesting accepted; deeper input is a parse error, never a stack overflow. */
export const MAX_NESTING = 200;

const ASSIGN_OPS = new Set(["=", "+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="]);

/** Binary operator precedence levels, lowest first (go.starlark.net's table). */
const PRECEDENCE: Record<string, number> = {
  or: 0,
  and: 1,
  not: 2,
  "==": 3,
  "!=": 3,
  "<": 3,
  ">": 3,
  "<=": 3,
  ">=": 3,
  in: 3,
  "not in": 3,
  "|": 4,
  "^": 5,
  "&": 6,
  "<<": 7,
  ">>": 7,
  "-": 8,
  "+": 8,
  "*": 9,
  "%": 9,
  "/": 9,
  "//": 9,
};
const NUM_LEVELS = 10;
const NOT_LEVEL = 2;
const COMPARISON_LEVEL = 3;

/** Tokens that may end an expression list (so a trailing comma is possible before them). */
function terminatesExprList(kind: TokenKind): boolean {
  return (
    kind === "EOF" ||
    kind === "NEWLINE" ||
    kind === "=" ||
    kind === "}" ||
    kind === "]" ||
    kind === ")" ||
    kind === ";"
  );
}

/** Parses a Starlark file; throws StarlarkSyntaxErrors holding the first scan or parse error. */
export function parseFile(filename: string, source: string): FileNode {
  try {
    return { filename, stmts: new Parser(source).parseFile() };
  } catch (e) {
    if (e instanceof ParseAbort) {
      throw new StarlarkSyntaxErrors([{ filename, line: e.pos.line, col: e.pos.col, msg: e.msg }]);
    }
    throw e;
  }
}

class Parser {
  private readonly scanner: Scanner;
  private tok!: Token;
  /** Current token kind; "not" followed by "in" is rewritten to "not in" in place. */
  private kind!: TokenKind;
  private depth = 0;

  constructor(source: string) {
    this.scanner = new Scanner(source);
    this.advance();
  }

  /** A method (not a field read) so TypeScript does not narrow the kind across advance(). */
  private cur(): string {
    return this.kind;
  }

  private advance(): Position {
    const pos = this.tok?.pos;
    this.tok = this.scanner.next();
    this.kind = this.tok.kind;
    return pos ?? this.tok.pos;
  }

  private fail(pos: Position, msg: string): never {
    throw new ParseAbort(pos, msg);
  }

  private consume(kind: TokenKind): Position {
    if (this.cur() !== kind) {
      this.fail(this.tok.end, `got ${describeToken(this.cur())}, want ${describeToken(kind)}`);
    }
    return this.advance();
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) this.fail(this.tok.end, `nesting too deep (limit ${MAX_NESTING})`);
  }

  parseFile(): Stmt[] {
    const stmts: Stmt[] = [];
    while (this.cur() !== "EOF") {
      if (this.cur() === "NEWLINE") {
        this.advance();
        continue;
      }
      this.parseStmt(stmts);
    }
    return stmts;
  }

  private parseStmt(stmts: Stmt[]): void {
    switch (this.cur()) {
      case "def":
        stmts.push(this.parseDef());
        return;
      case "if":
        stmts.push(this.parseIf());
        return;
      case "for":
        stmts.push(this.parseFor());
        return;
      case "while": {
        const pos = this.advance();
        const cond = this.parseTest();
        this.consume(":");
        stmts.push({ kind: "While", pos, cond, body: this.parseSuite() });
        return;
      }
      default:
        this.parseSimpleStmt(stmts);
    }
  }

  private parseDef(): Stmt {
    const pos = this.advance();
    const name = this.parseIdent();
    this.consume("(");
    const params = this.parseParams();
    this.consume(")");
    this.consume(":");
    const body = this.parseSuite();
    return { kind: "Def", pos, name, fn: newFunctionNode(pos, name.name, params, body) };
  }

  private parseIf(): Stmt {
    const pos = this.advance();
    const cond = this.parseTest();
    this.consume(":");
    const then = this.parseSuite();
    let elseBody: Stmt[] = [];
    if (this.cur() === "elif") {
      elseBody = [this.parseIf()];
    } else if (this.cur() === "else") {
      this.advance();
      this.consume(":");
      elseBody = this.parseSuite();
    }
    return { kind: "If", pos, cond, then, else: elseBody };
  }

  private parseFor(): Stmt {
    const pos = this.advance();
    const vars = this.parseForLoopVariables();
    this.consume("in");
    const x = this.parseExpr(false);
    this.consume(":");
    return { kind: "For", pos, vars, x, body: this.parseSuite() };
  }

  private parseSuite(): Stmt[] {
    this.enter();
    const stmts: Stmt[] = [];
    if (this.cur() === "NEWLINE") {
      this.advance();
      this.consume("INDENT");
      while (this.cur() !== "OUTDENT" && this.cur() !== "EOF") this.parseStmt(stmts);
      this.consume("OUTDENT");
    } else {
      this.parseSimpleStmt(stmts);
    }
    this.depth--;
    return stmts;
  }

  private parseSimpleStmt(stmts: Stmt[]): void {
    for (;;) {
      stmts.push(this.parseSmallStmt());
      if (this.cur() !== ";") break;
      this.advance();
      if (this.cur() === "NEWLINE" || this.cur() === "EOF") break;
    }
    // EOF without NEWLINE happens in 'if x: pass', for example.
    if (this.cur() !== "EOF") this.consume("NEWLINE");
  }

  private parseSmallStmt(): Stmt {
    const pos = this.tok.pos;
    switch (this.cur()) {
      case "return": {
        this.advance();
        let result: Expr | undefined;
        if (this.cur() !== "EOF" && this.cur() !== "NEWLINE" && this.cur() !== ";")
          result = this.parseExpr(false);
        return { kind: "Return", pos, result };
      }
      case "break":
      case "continue":
      case "pass": {
        const token = this.cur() as "break" | "continue" | "pass";
        this.advance();
        return { kind: "Branch", pos, token };
      }
      case "load":
        return this.parseLoad();
    }
    const lhs = this.parseExpr(false);
    if (ASSIGN_OPS.has(this.cur())) {
      const op = this.cur() as AssignOp;
      const opPos = this.advance();
      const rhs = this.parseExpr(false);
      return { kind: "Assign", pos, opPos, op, lhs, rhs };
    }
    return { kind: "ExprStmt", pos, x: lhs };
  }

  private parseLoad(): LoadStmt {
    const pos = this.advance();
    const lparen = this.consume("(");
    if (this.cur() !== "STRING")
      this.fail(this.tok.end, "first operand of load statement must be a string literal");
    const module = this.tok.value as string;
    this.advance();
    const from: Ident[] = [];
    const to: Ident[] = [];
    while (this.cur() !== ")" && this.cur() !== "EOF") {
      this.consume(",");
      if (this.cur() === ")") break;
      if (this.cur() === "STRING") {
        const id = this.loadIdent();
        to.push(id);
        from.push(id);
      } else if (this.cur() === "IDENT") {
        const id = this.parseIdent();
        to.push(id);
        if (this.cur() !== "=") {
          this.fail(
            this.tok.end,
            `load operand must be "${id.name}" or ${id.name}="originalname" (want '=' after ${id.name})`,
          );
        }
        this.advance();
        if (this.cur() !== "STRING") {
          this.fail(this.tok.end, `original name of loaded symbol must be quoted: ${id.name}="originalname"`);
        }
        from.push(this.loadIdent());
      } else {
        this.fail(
          this.tok.end,
          `load operand must be "name" or localname="name" (got ${describeToken(this.cur())})`,
        );
      }
    }
    this.consume(")");
    if (to.length === 0) this.fail(lparen, "load statement must import at least 1 symbol");
    return { kind: "Load", pos, module, from, to };
  }

  private loadIdent(): Ident {
    const pos = { line: this.tok.pos.line, col: this.tok.pos.col + 1 };
    const name = this.tok.value as string;
    this.advance();
    return { kind: "Ident", pos, name };
  }

  private parseIdent(): Ident {
    if (this.cur() !== "IDENT") this.fail(this.tok.end, "not an identifier");
    const id: Ident = { kind: "Ident", pos: this.tok.pos, name: this.tok.value as string };
    this.advance();
    return id;
  }

  private parseParams(): Param[] {
    const params: Param[] = [];
    while (this.cur() !== ")" && this.cur() !== ":" && this.cur() !== "EOF") {
      if (params.length > 0) this.consume(",");
      if (this.cur() === ")") break;
      if (this.cur() === "*" || this.cur() === "**") {
        const op = this.cur();
        const pos = this.advance();
        if (op === "**") {
          params.push({ kind: "starstar", pos, name: this.parseIdent() });
        } else {
          params.push({ kind: "star", pos, name: this.cur() === "IDENT" ? this.parseIdent() : undefined });
        }
        continue;
      }
      const name = this.parseIdent();
      if (this.cur() === "=") {
        const pos = this.advance();
        params.push({ kind: "optional", pos, name, default: this.parseTest() });
        continue;
      }
      params.push({ kind: "required", pos: name.pos, name });
    }
    return params;
  }

  /** expr = test {',' test}: an unparenthesized tuple is allowed. */
  private parseExpr(inParens: boolean): Expr {
    const x = this.parseTest();
    if (this.cur() !== ",") return x;
    return { kind: "Tuple", pos: x.pos, elems: this.parseExprs([x], inParens) };
  }

  private parseExprs(exprs: Expr[], allowTrailingComma: boolean): Expr[] {
    while (this.cur() === ",") {
      const pos = this.advance();
      if (terminatesExprList(this.cur())) {
        if (!allowTrailingComma) this.fail(pos, "unparenthesized tuple with trailing comma");
        break;
      }
      exprs.push(this.parseTest());
    }
    return exprs;
  }

  private parseTest(): Expr {
    if (this.cur() === "lambda") return this.parseLambda(true);
    const x = this.parseTestPrec(0);
    if (this.cur() === "if") {
      const ifPos = this.advance();
      const cond = this.parseTestPrec(0);
      if (this.cur() !== "else") this.fail(ifPos, "conditional expression without else clause");
      this.advance();
      const elseExpr = this.parseTest();
      return { kind: "Cond", pos: x.pos, cond, ifTrue: x, ifFalse: elseExpr };
    }
    return x;
  }

  /** A test that may not be an unparenthesized conditional (comprehension 'if' clauses). */
  private parseTestNoCond(): Expr {
    if (this.cur() === "lambda") return this.parseLambda(false);
    return this.parseTestPrec(0);
  }

  private parseLambda(allowCond: boolean): Expr {
    this.enter();
    const pos = this.advance();
    const params = this.parseParams();
    this.consume(":");
    const body = allowCond ? this.parseTest() : this.parseTestNoCond();
    this.depth--;
    const fn = newFunctionNode(pos, "lambda", params, [{ kind: "Return", pos: body.pos, result: body }]);
    return { kind: "Lambda", pos, fn };
  }

  private parseTestPrec(prec: number): Expr {
    if (prec >= NUM_LEVELS) return this.parsePrimaryWithSuffix();
    if (this.cur() === "not" && prec === NOT_LEVEL) {
      this.enter();
      const pos = this.advance();
      const x = this.parseTestPrec(prec);
      this.depth--;
      return { kind: "Unary", pos, op: "not", x };
    }
    return this.parseBinop(prec);
  }

  private parseBinop(prec: number): Expr {
    let x = this.parseTestPrec(prec + 1);
    for (let first = true; ; first = false) {
      if (this.cur() === "not") {
        // In this position, 'not' must be followed by 'in'.
        this.advance();
        if (this.cur() !== "in") this.fail(this.tok.end, `got ${describeToken(this.cur())}, want in`);
        this.kind = "not in";
      }
      const opPrec = PRECEDENCE[this.cur()];
      if (opPrec === undefined || opPrec < prec) return x;
      if (!first && opPrec === COMPARISON_LEVEL && x.kind === "Binary") {
        this.fail(this.tok.end, `${x.op} does not associate with ${this.cur()} (use parens)`);
      }
      const op = this.cur() as BinaryOp;
      const opPos = this.advance();
      const y = this.parseTestPrec(opPrec + 1);
      x = { kind: "Binary", pos: x.pos, opPos, op, x, y };
    }
  }

  private parseForLoopVariables(): Expr {
    // Not parseExpr: it would consume the 'in' of "for x in y".
    const v = this.parsePrimaryWithSuffix();
    if (this.cur() !== ",") return v;
    const elems = [v];
    while (this.cur() === ",") {
      this.advance();
      if (terminatesExprList(this.cur())) break;
      elems.push(this.parsePrimaryWithSuffix());
    }
    return { kind: "Tuple", pos: v.pos, elems };
  }

  private parsePrimaryWithSuffix(): Expr {
    let x = this.parsePrimary();
    for (;;) {
      switch (this.cur()) {
        case ".": {
          const dotPos = this.advance();
          x = { kind: "Dot", pos: x.pos, dotPos, x, name: this.parseIdent() };
          break;
        }
        case "[":
          x = this.parseSliceSuffix(x);
          break;
        case "(": {
          const lparen = this.advance();
          const args = this.parseArgs();
          this.consume(")");
          x = { kind: "Call", pos: x.pos, lparen, fn: x, args };
          break;
        }
        default:
          return x;
      }
    }
  }

  private parseSliceSuffix(x: Expr): Expr {
    const lbrack = this.advance();
    let lo: Expr | undefined;
    let hi: Expr | undefined;
    let step: Expr | undefined;
    if (this.cur() !== ":") {
      const y = this.parseExpr(false);
      if (this.cur() === "]") {
        this.advance();
        return { kind: "Index", pos: x.pos, lbrack, x, index: y };
      }
      lo = y;
    }
    if (this.cur() === ":") {
      this.advance();
      if (this.cur() !== ":" && this.cur() !== "]") hi = this.parseTest();
    }
    if (this.cur() === ":") {
      this.advance();
      if (this.cur() !== "]") step = this.parseTest();
    }
    this.consume("]");
    return { kind: "Slice", pos: x.pos, lbrack, x, lo, hi, step };
  }

  private parseArgs(): Arg[] {
    const args: Arg[] = [];
    while (this.cur() !== ")" && this.cur() !== "EOF") {
      if (args.length > 0) this.consume(",");
      if (this.cur() === ")") break;
      if (this.cur() === "*" || this.cur() === "**") {
        const star = this.cur() === "*";
        const pos = this.advance();
        const value = this.parseTest();
        args.push(star ? { kind: "star", pos, value } : { kind: "starstar", pos, value });
        continue;
      }
      // LL(1): parse 'test = test' and then check that the first was an identifier.
      const x = this.parseTest();
      if (this.cur() === "=") {
        if (x.kind !== "Ident") this.fail(this.tok.end, "keyword argument must have form name=expr");
        this.advance();
        args.push({ kind: "named", pos: x.pos, name: x, value: this.parseTest() });
        continue;
      }
      args.push({ kind: "positional", pos: x.pos, value: x });
    }
    return args;
  }

  private parsePrimary(): Expr {
    const tok = this.tok;
    switch (this.cur()) {
      case "IDENT":
        this.advance();
        return { kind: "Ident", pos: tok.pos, name: tok.value as string };
      case "INT":
        this.advance();
        return {
          kind: "Literal",
          pos: tok.pos,
          raw: tok.raw,
          literal: { type: "int", value: tok.value as number },
        };
      case "FLOAT":
        this.advance();
        return {
          kind: "Literal",
          pos: tok.pos,
          raw: tok.raw,
          literal: { type: "float", value: tok.value as number },
        };
      case "STRING":
      case "BYTES":
        this.advance();
        return {
          kind: "Literal",
          pos: tok.pos,
          raw: tok.raw,
          literal:
            tok.kind === "STRING"
              ? { type: "string", value: internString(tok.value as string) }
              : { type: "bytes", value: tok.value as string },
        };
      case "[":
        return this.nested(() => this.parseList());
      case "{":
        return this.nested(() => this.parseDict());
      case "(":
        return this.nested(() => {
          const pos = this.advance();
          if (this.cur() === ")") {
            this.advance();
            return { kind: "Tuple", pos, elems: [] };
          }
          const x = this.parseExpr(true);
          this.consume(")");
          return { kind: "Paren", pos, x };
        });
      case "-":
      case "+":
      case "~": {
        const op = this.cur() as "-" | "+" | "~";
        return this.nested(() => {
          const pos = this.advance();
          return { kind: "Unary", pos, op, x: this.parsePrimaryWithSuffix() };
        });
      }
    }
    // The newest go.starlark.net reports this at the token itself (a newline: at the end of its line).
    this.fail(tok.pos, `got ${describeToken(this.cur())}, want primary expression`);
  }

  private nested(parse: () => Expr): Expr {
    this.enter();
    const x = parse();
    this.depth--;
    return x;
  }

  private parseList(): Expr {
    const pos = this.advance();
    if (this.cur() === "]") {
      this.advance();
      return { kind: "List", pos, elems: [] };
    }
    const x = this.parseTest();
    if (this.cur() === "for") return this.parseComprehensionSuffix(pos, x, "]");
    const elems = [x];
    if (this.cur() === ",") this.parseExprs(elems, true);
    this.consume("]");
    return { kind: "List", pos, elems };
  }

  private parseDict(): Expr {
    const pos = this.advance();
    if (this.cur() === "}") {
      this.advance();
      return { kind: "Dict", pos, entries: [] };
    }
    const first = this.parseDictEntry();
    if (this.cur() === "for") return this.parseComprehensionSuffix(pos, first, "}");
    const entries = [first];
    while (this.cur() === ",") {
      this.advance();
      if (this.cur() === "}") break;
      entries.push(this.parseDictEntry());
    }
    this.consume("}");
    return { kind: "Dict", pos, entries };
  }

  private parseDictEntry(): DictEntry {
    const key = this.parseTest();
    // The colon's position: go.starlark.net reports insertion errors (unhashable key) there.
    const colon = this.consume(":");
    return { kind: "DictEntry", pos: colon, key, value: this.parseTest() };
  }

  private parseComprehensionSuffix(pos: Position, body: Expr | DictEntry, end: "]" | "}"): Expr {
    const clauses: (ForClause | IfClause)[] = [];
    for (;;) {
      if (this.cur() === "for") {
        const forPos = this.advance();
        const vars = this.parseForLoopVariables();
        this.consume("in");
        // The operand of 'in' may not be a conditional, a lambda or an unparenthesized tuple.
        const x = this.parseTestPrec(0);
        clauses.push({ kind: "ForClause", pos: forPos, vars, x });
      } else if (this.cur() === "if") {
        const ifPos = this.advance();
        clauses.push({ kind: "IfClause", pos: ifPos, cond: this.parseTestNoCond() });
      } else if (this.cur() === end) {
        break;
      } else {
        this.fail(this.tok.end, `got ${describeToken(this.cur())}, want '${end}', for, or if`);
      }
    }
    this.advance();
    return { kind: "Comprehension", pos, curly: end === "}", body, clauses };
  }
}
