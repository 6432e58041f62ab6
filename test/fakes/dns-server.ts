import dgram from "node:dgram";
import dnsPacket from "dns-packet";

/**
 * A real DNS server on 127.0.0.1 (UDP) that answers TXT questions from a table the test edits:
 * the service's resolver asks it through `DNS_SERVERS`, as it would ask a provider's servers.
 * Unknown names answer NXDOMAIN; `silent` names get no answer at all (a DNS outage).
 */
export type FakeDns = { address: string; txt: Map<string, string[]>; silent: Set<string>; questions: string[]; close: () => Promise<void> };

export async function startFakeDns(): Promise<FakeDns> {
  const socket = dgram.createSocket("udp4");
  const txt = new Map<string, string[]>();
  const silent = new Set<string>();
  const questions: string[] = [];
  socket.on("message", (msg, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(msg);
    } catch {
      return;
    }
    const q = query.questions?.[0];
    if (!q) return;
    const name = q.name.toLowerCase();
    questions.push(`${q.type} ${name}`);
    if (silent.has(name)) return;
    const values = q.type === "TXT" ? txt.get(name) : undefined;
    const answer = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (values || txt.has(name) ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [q],
      answers: (values ?? []).map((v) => ({ type: "TXT" as const, name: q.name, ttl: 60, class: "IN" as const, data: v })),
    });
    socket.send(answer, rinfo.port, rinfo.address);
  });
  await new Promise<void>((ok) => socket.bind(0, "127.0.0.1", ok));
  socket.unref(); // never what keeps a test process alive
  const { port } = socket.address();
  return { address: `127.0.0.1:${port}`, txt, silent, questions, close: () => new Promise<void>((ok) => socket.close(() => ok())) };
}
