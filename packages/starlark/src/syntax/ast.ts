import type { Position } from "./position.js";

/**
 * The Starlark syntax tree. Every node carries the position of its first token (`pos`);
 * operator nodes also carry the operator position, which runtime errors report.
 * The resolver fills in `Ident.binding` and the `FunctionNode` slot tables.
 */

export type Scope = "local" | "cell" | "free" | "global" | "predeclared" | "universal";

/** Where a name lives at run time, as decided by the resolver. */
export interface Binding {
  scope: Scope;
  /** Slot: local/cell index in the frame, index into the closure's free-variable cells, or global index. */
  index: number;
  /** The identifier that first bound the name (for "declared at" messages). */
  readonly first: Ident | undefined;
  readonly name: string;
}

export interface Ident {
  readonly kind: "Ident";
  readonly pos: Position;
  readonly name: string;
  binding?: Binding;
}

export type LiteralValue =
  | { readonly type: "int"; readonly value: number | bigint }
  | { readonly type: "float"; readonly value: number }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "bytes"; readonly value: string };

export interface Literal {
  readonly kind: "Literal";
  readonly pos: Position;
  readonly raw: string;
  readonly literal: LiteralValue;
}

export interface ParenExpr {
  readonly kind: "Paren";
  readonly pos: Position;
  readonly x: Expr;
}

export interface ListExpr {
  readonly kind: "List";
  readonly pos: Position;
  readonly elems: Expr[];
}

export interface TupleExpr {
  readonly kind: "Tuple";
  readonly pos: Position;
  readonly elems: Expr[];
}

export interface DictEntry {
  readonly kind: "DictEntry";
  /** The colon's position. */
  readonly pos: Position;
  readonly key: Expr;
  readonly value: Expr;
}

export interface DictExpr {
  readonly kind: "Dict";
  readonly pos: Position;
  readonly entries: DictEntry[];
}

export interface ForClause {
  readonly kind: "ForClause";
  readonly pos: Position;
  readonly vars: Expr;
  readonly x: Expr;
}

export interface IfClause {
  readonly kind: "IfClause";
  readonly pos: Position;
  readonly cond: Expr;
}

export interface Comprehension {
  readonly kind: "Comprehension";
  readonly pos: Position;
  /** true for {...} (dict comprehension, body is a DictEntry), false for [...]. */
  readonly curly: boolean;
  readonly body: Expr | DictEntry;
  readonly clauses: (ForClause | IfClause)[];
}

export type UnaryOp = "-" | "+" | "~" | "not";

export interface UnaryExpr {
  readonly kind: "Unary";
  readonly pos: Position;
  readonly op: UnaryOp;
  readonly x: Expr;
}

export type BinaryOp =
  | "or"
  | "and"
  | "=="
  | "!="
  | "<"
  | ">"
  | "<="
  | ">="
  | "in"
  | "not in"
  | "|"
  | "^"
  | "&"
  | "<<"
  | ">>"
  | "-"
  | "+"
  | "*"
  | "%"
  | "/"
  | "//";

export interface BinaryExpr {
  readonly kind: "Binary";
  readonly pos: Position;
  readonly opPos: Position;
  readonly op: BinaryOp;
  readonly x: Expr;
  readonly y: Expr;
}

export interface CondExpr {
  readonly kind: "Cond";
  readonly pos: Position;
  readonly cond: Expr;
  readonly ifTrue: Expr;
  readonly ifFalse: Expr;
}

export type Arg =
  | { readonly kind: "positional"; readonly pos: Position; readonly value: Expr }
  | { readonly kind: "named"; readonly pos: Position; readonly name: Ident; readonly value: Expr }
  | { readonly kind: "star"; readonly pos: Position; readonly value: Expr }
  | { readonly kind: "starstar"; readonly pos: Position; readonly value: Expr };

export interface CallExpr {
  readonly kind: "Call";
  readonly pos: Position;
  readonly lparen: Position;
  readonly fn: Expr;
  readonly args: Arg[];
}

export interface DotExpr {
  readonly kind: "Dot";
  readonly pos: Position;
  readonly dotPos: Position;
  readonly x: Expr;
  readonly name: Ident;
}

export interface IndexExpr {
  readonly kind: "Index";
  readonly pos: Position;
  readonly lbrack: Position;
  readonly x: Expr;
  readonly index: Expr;
}

export interface SliceExpr {
  readonly kind: "Slice";
  readonly pos: Position;
  readonly lbrack: Position;
  readonly x: Expr;
  readonly lo: Expr | undefined;
  readonly hi: Expr | undefined;
  readonly step: Expr | undefined;
}

export interface LambdaExpr {
  readonly kind: "Lambda";
  readonly pos: Position;
  readonly fn: FunctionNode;
}

export type Expr =
  | Ident
  | Literal
  | ParenExpr
  | ListExpr
  | TupleExpr
  | DictExpr
  | Comprehension
  | UnaryExpr
  | BinaryExpr
  | CondExpr
  | CallExpr
  | DotExpr
  | IndexExpr
  | SliceExpr
  | LambdaExpr;

export type Param =
  | { readonly kind: "required"; readonly pos: Position; readonly name: Ident }
  | { readonly kind: "optional"; readonly pos: Position; readonly name: Ident; readonly default: Expr }
  /** `*args`, or a bare `*` (name undefined) that starts keyword-only parameters. */
  | { readonly kind: "star"; readonly pos: Position; readonly name: Ident | undefined }
  | { readonly kind: "starstar"; readonly pos: Position; readonly name: Ident };

/** A def or lambda. The resolver fills in the slot tables. */
export interface FunctionNode {
  readonly pos: Position;
  readonly name: string;
  readonly params: Param[];
  readonly body: Stmt[];
  /** All locals (parameters first, in order), including comprehension variables. */
  locals: Binding[];
  /** Bindings of the enclosing function captured by this function, in closure-cell order. */
  freeVars: Binding[];
  /** Number of ordinary (non-star) parameters before any `*`. */
  numPositional: number;
  /** Number of keyword-only parameters (after `*` or `*args`). */
  numKwonly: number;
  hasVarargs: boolean;
  hasKwargs: boolean;
}

export type AssignOp = "=" | "+=" | "-=" | "*=" | "/=" | "//=" | "%=" | "&=" | "|=" | "^=" | "<<=" | ">>=";

export interface AssignStmt {
  readonly kind: "Assign";
  readonly pos: Position;
  readonly opPos: Position;
  readonly op: AssignOp;
  readonly lhs: Expr;
  readonly rhs: Expr;
}

export interface ExprStmt {
  readonly kind: "ExprStmt";
  readonly pos: Position;
  readonly x: Expr;
}

export interface IfStmt {
  readonly kind: "If";
  readonly pos: Position;
  readonly cond: Expr;
  readonly then: Stmt[];
  readonly else: Stmt[];
}

export interface ForStmt {
  readonly kind: "For";
  readonly pos: Position;
  readonly vars: Expr;
  readonly x: Expr;
  readonly body: Stmt[];
}

export interface WhileStmt {
  readonly kind: "While";
  readonly pos: Position;
  readonly cond: Expr;
  readonly body: Stmt[];
}

export interface DefStmt {
  readonly kind: "Def";
  readonly pos: Position;
  readonly name: Ident;
  readonly fn: FunctionNode;
}

export interface ReturnStmt {
  readonly kind: "Return";
  readonly pos: Position;
  readonly result: Expr | undefined;
}

export interface BranchStmt {
  readonly kind: "Branch";
  readonly pos: Position;
  readonly token: "break" | "continue" | "pass";
}

export interface LoadStmt {
  readonly kind: "Load";
  readonly pos: Position;
  readonly module: string;
  /** Names as exported by the loaded module. */
  readonly from: Ident[];
  /** Local names bound by this statement. */
  readonly to: Ident[];
}

export type Stmt =
  | AssignStmt
  | ExprStmt
  | IfStmt
  | ForStmt
  | WhileStmt
  | DefStmt
  | ReturnStmt
  | BranchStmt
  | LoadStmt;

export interface FileNode {
  readonly filename: string;
  readonly stmts: Stmt[];
  /** Filled in by the resolver: the module's top-level pseudo-function (for file locals). */
  toplevel?: FunctionNode;
  globals?: Binding[];
}

export function newFunctionNode(pos: Position, name: string, params: Param[], body: Stmt[]): FunctionNode {
  return {
    pos,
    name,
    params,
    body,
    locals: [],
    freeVars: [],
    numPositional: 0,
    numKwonly: 0,
    hasVarargs: false,
    hasKwargs: false,
  };
}
