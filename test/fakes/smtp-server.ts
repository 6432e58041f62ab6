import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that accepts mail for a login
 * (`user`/`password`, AUTH PLAIN/LOGIN over the clear connection: tests use `tls: "none"`) and
 * keeps each message as received (raw bytes and parsed). Switches: `rejectData` answers 554 to
 * DATA, `hang` never answers it.
 */
export async function startFakeSmtp(opts: { user?: string; password?: string; port?: number } = {}) {
  const user = opts.user ?? "ana@imobiliaria.test";
  const password = opts.password ?? "smtp-pass";
  const state = {
    received: [] as { from: string; to: string[]; raw: Buffer; parsed: ParsedMail }[],
    switches: { rejectData: false, hang: false },
    /** Awaited before a message is accepted (its 250): lets a test act while the sender waits. */
    beforeAccept: null as null | (() => Promise<void>),
    /** Connections accepted so far, and those open now. */
    connections: { total: 0, open: 0 },
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    logger: false,
    onConnect(_session, cb) {
      state.connections.total++;
      state.connections.open++;
      cb();
    },
    onClose() {
      state.connections.open--;
    },
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === password) cb(null, { user });
      else cb(new Error("Invalid username or password"));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", async () => {
        if (state.switches.hang) return;
        if (state.switches.rejectData) {
          const err = new Error("Message rejected") as Error & { responseCode: number };
          err.responseCode = 554;
          return cb(err);
        }
        const raw = Buffer.concat(chunks);
        state.received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          parsed: await simpleParser(raw),
        });
        if (state.beforeAccept) await state.beforeAccept();
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    user,
    password,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type FakeSmtp = Awaited<ReturnType<typeof startFakeSmtp>>;
