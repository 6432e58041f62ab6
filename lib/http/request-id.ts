import { randomUUID } from "node:crypto";

/** Keeps a caller's request id when it is sane (so traces join up), else makes one. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("x-request-id");
  return incoming && /^[A-Za-z0-9._:-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}
