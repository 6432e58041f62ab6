import { expect, type APIRequestContext } from "@playwright/test";

/** An authenticated `/api/v1` call that must succeed; the answer's JSON. */
export async function api(request: APIRequestContext, key: string, method: "post" | "patch" | "get", path: string, data?: unknown) {
  const res = await request[method](path, { headers: { authorization: `Bearer ${key}` }, ...(data ? { data } : {}) });
  expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}
