import { invalid, type DomainError } from "../../errors/domain-errors";

/**
 * A filter the parser rejects. `message` is the Typesense text (search-language.md §1.7, verbatim where the
 * doc gives one) so clients written against Typesense see what they expect; `pos` is the 0-based offset in the
 * filter string where the problem starts, which Typesense does not give but which makes long filters debuggable.
 */
export class ParseError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
    this.name = "ParseError";
  }
}

/** The 400 the HTTP layer answers for a bad `filter_by`. */
export function toDomainError(e: ParseError): DomainError {
  return invalid(`filter: ${e.message} (at position ${e.pos})`, "invalid_filter");
}

/** Messages shared by several parts of the parser, verbatim from Typesense. */
export const MSG = {
  noColon: "Could not parse the filter query.",
  parens: "Could not parse the filter query: unbalanced parentheses.",
  operands: (op: string) => `Could not parse the filter query: unbalanced \`${op}\` operands.`,
  loneOp: "Could not parse the filter filter_query.",
  empty: "Filter query cannot be empty.",
  unknownField: (f: string) => `Could not find a filter field named \`${f}\` in the schema.`,
  emptyValue: (f: string) => `Error with filter field \`${f}\`: Filter value cannot be empty.`,
  tooManyOps: (max: number) => `\`filter_by\` has too many operations. Maximum allowed: ${max}.`,
  // Ours (no Typesense equivalent): a hard bound on bound parameters, see parser.ts.
  tooManyValues: (max: number) => `\`filter_by\` has too many values. Maximum allowed: ${max}.`,
} as const;
