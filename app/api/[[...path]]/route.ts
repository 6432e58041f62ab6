import { unknownApiPath } from "@/lib/http/unknown-path";

/**
 * Every `/api` path no other route serves (Next tries this optional catch-all last, after every
 * static and dynamic route): a JSON 404 for any method, never the HTML not-found page.
 */
export const GET = unknownApiPath;
export const HEAD = unknownApiPath;
export const OPTIONS = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
