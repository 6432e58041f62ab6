import { expect, type APIRequestContext } from "@playwright/test";
import { E2E_OPERATOR_TOKEN } from "./constants";

/** An authenticated `/api/v1` call that must succeed; the answer's JSON. */
export async function api(request: APIRequestContext, key: string, method: "post" | "patch" | "get", path: string, data?: unknown) {
  const res = await request[method](path, { headers: { authorization: `Bearer ${key}` }, ...(data ? { data } : {}) });
  expect(res.status(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

/** A new tenant through the operator API; its owner's API key. */
export async function newTenant(request: APIRequestContext, name: string, ownerEmail: string): Promise<string> {
  const res = await request.post("/api/admin/tenants", {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    data: { name, owner: { name: "Owner", email: ownerEmail } },
  });
  expect(res.status(), `POST /api/admin/tenants: ${await res.text()}`).toBe(201);
  return (await res.json()).apiKey as string;
}
