import http from "node:http";
import type { AddressInfo } from "node:net";
import { resetConfigForTests } from "../../lib/config";

/**
 * A geocoder on 127.0.0.1 that the service reaches through GEOCODER_URL while it runs; `handle`
 * answers each request. `close` forgets GEOCODER_URL and stops it.
 */
export async function startFakeGeocoder(handle: http.RequestListener) {
  const server = http.createServer(handle);
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  process.env.GEOCODER_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetConfigForTests();
  return {
    close: async () => {
      delete process.env.GEOCODER_URL;
      resetConfigForTests();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

export type FakeGeocoder = Awaited<ReturnType<typeof startFakeGeocoder>>;
