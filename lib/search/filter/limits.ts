/** Size limits of a `filter_by` expression (kept apart so every parsing stage can enforce them early). */

/** Typesense's `--filter-by-max-ops` default: operands + operators. */
export const MAX_OPS = 100;

/**
 * Ours: list items, ids, polygon vertices... over the whole filter. Every value becomes bound parameters and
 * PostgreSQL allows 65535 per statement, so without a cap one huge `[...]` list would be a 500 instead of a 400;
 * it also bounds the quadratic polygon validity check.
 */
export const MAX_VALUES = 1000;
