import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "../../../lib/config";
import { CLIENT_ADDRESS_HEADER, clientAddress } from "../../../lib/http/client-address";
import { requestListener } from "../../../lib/server/web-server";

const saved = { ...process.env };
afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

describe("the client address of rate limits", () => {
  it("is the socket's address, stamped by the server over anything the client sent", async () => {
    const server = http.createServer(requestListener((req, res) => res.end(String(req.headers[CLIENT_ADDRESS_HEADER]))));
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { [CLIENT_ADDRESS_HEADER]: "6.6.6.6", "x-forwarded-for": "7.7.7.7" },
      });
      expect(await res.text()).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    }
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY=true, then takes its first hop", () => {
    const h = new Headers({ [CLIENT_ADDRESS_HEADER]: "10.1.1.1", "x-forwarded-for": "203.0.113.9, 10.0.0.2" });
    delete process.env.TRUST_PROXY;
    resetConfigForTests();
    expect(clientAddress(h)).toBe("10.1.1.1");
    process.env.TRUST_PROXY = "true";
    resetConfigForTests();
    expect(clientAddress(h)).toBe("203.0.113.9");
    expect(clientAddress(new Headers({ [CLIENT_ADDRESS_HEADER]: "10.1.1.1" }))).toBe("10.1.1.1");
  });
});
