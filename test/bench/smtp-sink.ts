/**
 * An SMTP server that accepts every message and keeps nothing, in a process of its own: the
 * benchmarks that send mail fork it, so the mail server's work (a separate machine in production)
 * does not share the measured process's event loop. Sends its port to the parent once listening.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onData: (stream, _session, done) => stream.on("data", () => {}).on("end", () => done()),
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: (server.server.address() as AddressInfo).port }));
process.on("disconnect", () => process.exit(0));
