import net from "node:net";

/**
 * A TCP relay between a server under test and its database, which the test can cut (every
 * connection dropped, new ones refused: the database "goes away") and restore on the same port.
 */
export type TcpProxy = { port: number; cut: () => Promise<void>; restore: () => Promise<void>; close: () => Promise<void> };

export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  let listening: net.Server | null = server;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    if (!listening) return;
    const s = listening;
    listening = null;
    await new Promise<void>((ok) => {
      s.close(() => ok());
      for (const sock of sockets) sock.destroy();
    });
  };
  return {
    port,
    cut,
    restore: async () => {
      if (listening) return;
      await new Promise<void>((ok) => server.listen(port, "127.0.0.1", ok));
      listening = server;
    },
    close: cut,
  };
}
