import { Resolver } from "node:dns/promises";
import { config } from "../../config";
import { unavailable } from "../../errors/domain-errors";

/** Answers that mean "no such record" rather than "DNS did not answer". */
const ABSENT = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN", "ENONAME"]);

/**
 * The TXT records at `name`, each as one string (a record's 255-byte chunks joined, as RFC 7208
 * reads them); [] when there are none. Asked of `DNS_SERVERS` when set (tests run a DNS server on
 * 127.0.0.1), else of the system's resolvers. DNS that does not answer is a 503: the owner's record
 * may well be there.
 */
export async function lookupTxt(name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 1_500, tries: 2 });
  const servers = config().DNS_SERVERS;
  if (servers)
    resolver.setServers(
      servers
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );
  try {
    return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    if (ABSENT.has(code)) return [];
    throw unavailable(`The DNS servers did not answer for ${name} (${code || (err as Error).message}); retry in a minute.`, "dns_unavailable");
  }
}
