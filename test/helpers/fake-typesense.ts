import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real HTTP server on 127.0.0.1 that answers the part of Typesense's API the index writer uses:
 * collection retrieve/create/update, JSON-lines document import (`action=upsert`) and delete by
 * `filter_by=id:[...]`. It keeps the documents, so a test can see what reached "Typesense".
 */
export async function startFakeTypesense(apiKey = "test-key") {
  const collections = new Map<string, { fields: unknown[]; docs: Map<string, Record<string, unknown>> }>();
  const requests: { method: string; path: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      requests.push({ method: req.method ?? "", path: url.pathname });
      const send = (status: number, payload: unknown, type = "application/json") => {
        res.writeHead(status, { "content-type": type }).end(typeof payload === "string" ? payload : JSON.stringify(payload));
      };
      if (req.headers["x-typesense-api-key"] !== apiKey) return send(401, { message: "Forbidden - a valid `x-typesense-api-key` header must be sent." });
      const parts = url.pathname.split("/").filter(Boolean);
      if (parts[0] !== "collections") return send(404, { message: "Not Found" });
      if (parts.length === 1 && req.method === "POST") {
        const schema = JSON.parse(body) as { name: string; fields: unknown[] };
        if (collections.has(schema.name)) return send(409, { message: `A collection with name \`${schema.name}\` already exists.` });
        collections.set(schema.name, { fields: schema.fields, docs: new Map() });
        return send(201, schema);
      }
      const c = collections.get(parts[1]);
      if (!c) return send(404, { message: `Collection \`${parts[1]}\` not found.` });
      if (parts.length === 2 && req.method === "GET") return send(200, { name: parts[1], fields: c.fields });
      if (parts.length === 2 && req.method === "PATCH") return send(200, JSON.parse(body));
      if (parts[2] === "documents" && parts[3] === "import" && req.method === "POST") {
        const lines = body
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        for (const d of lines) c.docs.set(String(d.id), d);
        return send(200, lines.map(() => '{"success":true}').join("\n"), "text/plain");
      }
      if (parts[2] === "documents" && parts.length === 3 && req.method === "DELETE") {
        const ids =
          /^id:\[(.*)\]$/
            .exec(url.searchParams.get("filter_by") ?? "")?.[1]
            .split(",")
            .map((s) => s.trim().replace(/^`|`$/g, "")) ?? [];
        let n = 0;
        for (const id of ids) if (c.docs.delete(id)) n++;
        return send(200, { num_deleted: n });
      }
      return send(404, { message: "Not Found" });
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey,
    requests,
    docs: (collection: string) => collections.get(collection)?.docs ?? new Map<string, Record<string, unknown>>(),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
