/** Public entry point of the `filter_by` language (search-language.md §0-§1). */
export type * from "./ast";
export { compileFilter, compileFilterString, DERIVED_SQL_HEAD, DERIVED_SQL_TAIL, derivedTokensSql } from "./compile-sql";
export { ParseError, toDomainError } from "./errors";
export { derivedTokens, MAX_TOKEN_CHARS, normalizeElement, normalizeTokens, storedElements, storedTokens } from "./normalize";
export { MAX_OPS, MAX_VALUES, parseFilter } from "./parser";
export type { FieldType, FilterField, FilterSchema } from "./schema";
