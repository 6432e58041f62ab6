/**
 * The pricing tool's HTML uses the share pages' escaping template (same rules: every value escaped
 * unless it is already `Html`, arrays joined, null/undefined/false print nothing).
 */
export { Html, escapeHtml, html, raw } from "../_share/html";
