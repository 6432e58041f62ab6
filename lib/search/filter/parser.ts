/**
 * `filter_by` string -> AST (search-language.md §1.1-§1.7).
 *
 * Same pipeline as Typesense (`parse_filter_query`): lex, shunting-yard to postfix, cap the size, build the
 * tree from the postfix. Keeping the pipeline (instead of a recursive-descent parser) is deliberate: it makes
 * `&&` and `||` equal-precedence and left-associative exactly as Typesense does, and it reports the same error
 * first when a filter has several problems (paren errors before clause errors, clauses in postfix order).
 */
import type { FilterNode, LeafNode } from "./ast";
import { parseClause } from "./clause";
import { MSG, ParseError } from "./errors";
import { MAX_OPS, MAX_VALUES } from "./limits";
import { lex, type OpToken, type OperandToken, type ParenToken, type Token } from "./lexer";
import type { FilterSchema } from "./schema";
import { isSpace } from "./span";

type Operand = OperandToken;
type Op = OpToken;
const isOp = (t: Token): t is OpToken => t.kind === "&&" || t.kind === "||";

/** Parses `filter`; `null` for an empty or all-whitespace filter (= no filter). Throws `ParseError`. */
export function parseFilter(filter: string, schema: FilterSchema): FilterNode | null {
  if ([...filter].every(isSpace)) return null;
  const tokens = lex(filter);
  const postfix = toPostfix(tokens);
  if (postfix.length > MAX_OPS) {
    // Point at the first token over the cap, in reading order.
    const over = tokens.filter((t) => t.kind !== "(" && t.kind !== ")")[MAX_OPS];
    throw new ParseError(MSG.tooManyOps(MAX_OPS), over.pos);
  }
  return buildTree(postfix, schema, tokens[0]?.pos ?? 0);
}

function toPostfix(tokens: Token[]): Array<Operand | Op> {
  const out: Array<Operand | Op> = [];
  const stack: Array<Op | ParenToken> = [];
  for (const t of tokens) {
    if (isOp(t)) {
      // Equal precedence, left associative: pop every operator down to the nearest "(".
      while (stack.length > 0 && stack[stack.length - 1].kind !== "(") out.push(stack.pop() as Op);
      stack.push(t);
    } else if (t.kind === "(") {
      stack.push(t);
    } else if (t.kind === ")") {
      while (stack.length > 0 && stack[stack.length - 1].kind !== "(") out.push(stack.pop() as Op);
      if (stack.length === 0) throw new ParseError(MSG.parens, t.pos);
      stack.pop();
    } else {
      out.push(t);
    }
  }
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (!isOp(top)) throw new ParseError(MSG.parens, top.pos); // an unclosed "("
    out.push(top);
  }
  return out;
}

function buildTree(postfix: Array<Operand | Op>, schema: FilterSchema, firstPos: number): FilterNode {
  const stack: FilterNode[] = [];
  let values = 0;
  for (const t of postfix) {
    if (isOp(t)) {
      const right = stack.pop();
      const left = stack.pop();
      if (!left || !right) throw new ParseError(MSG.operands(t.kind), t.pos);
      stack.push({ kind: t.kind === "&&" ? "and" : "or", left, right, pos: left.pos });
      continue;
    }
    const leaf = parseOperand(t, schema);
    values += valueCount(leaf);
    if (values > MAX_VALUES) throw new ParseError(MSG.tooManyValues(MAX_VALUES), t.pos);
    stack.push(leaf);
  }
  if (stack.length === 0) throw new ParseError(MSG.empty, firstPos);
  // Typesense silently keeps only the last operand of `(a:1)(b:2)`; dropping a user's clause without a word
  // would be worse than refusing the filter.
  if (stack.length > 1) throw new ParseError(MSG.noColon, stack[1].pos);
  return stack[0];
}

function parseOperand(t: Operand, schema: FilterSchema): LeafNode {
  if (t.kind === "object") {
    throw new ParseError("Filtering on nested object fields (`field.{...}`) is not supported.", t.pos);
  }
  if (t.kind === "join") throw new ParseError("Join filters (`$Collection(...)`) are not supported.", t.pos);
  return parseClause(t, schema);
}

function valueCount(leaf: LeafNode): number {
  switch (leaf.kind) {
    case "string":
      return leaf.values.length;
    case "number":
      return leaf.items.length;
    case "bool":
      return leaf.values.length;
    case "id":
      return leaf.ids === "*" ? 1 : leaf.ids.length;
    case "geo":
      return leaf.shapes.reduce((n, s) => n + (s.type === "polygon" ? s.vertices.length : 1), 0);
  }
}
export { ParseError, toDomainError } from "./errors";
export { MAX_OPS, MAX_VALUES } from "./limits";
