/** Public entry point of the `filter_by` language (search-language.md §0-§1). */
export type * from "./ast";
export { compileFilter, compileFilterString } from "./compile-sql";
export { ParseError, toDomainError } from "./errors";
export { MAX_TOKEN_CHARS, normalizeElement, normalizeTokens } from "./normalize";
export { MAX_OPS, MAX_VALUES, parseFilter } from "./parser";
export type { FieldType, FilterField, FilterSchema } from "./schema";
