import { Client, Errors } from "typesense";
import type { NodeConfiguration } from "typesense/lib/Typesense/Configuration";
import type { ImportResponse } from "typesense/lib/Typesense/Documents";
import { config } from "../../config";
import type { SearchEngine, SearchRequest, SearchResult, SearchScope } from "../engine";
import type { SearchIndexWriter } from "../index-writer";
import { ensureCollection, type EnsureResult } from "./collection-schema";
import { scopeToFilter } from "./filter-to-string";
import { fromTypesense, searchErrorFor, toSearchError, toServiceError, type TypesenseSearchResponse } from "./from-typesense";
import { toSearchParams } from "./to-search-params";
import { toTypesenseDoc, type DocumentAccess, type TypesenseDocument } from "./to-typesense-doc";

export const IMPORT_BATCH = 500;
const DELETE_BATCH = 100;
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export type TypesenseEngineOptions = {
  connectionTimeoutSeconds?: number;
  numRetries?: number;
  retryIntervalSeconds?: number;
  logLevel?: "trace" | "debug" | "info" | "warn" | "error" | "silent";
};

export type IndexedDocument = { doc: Record<string, unknown>; access: DocumentAccess };

/** `http://typesense:8108/prefix` -> the client's node config (default ports 80 / 443 as in any URL). */
export function nodeFromUrl(raw: string): NodeConfiguration {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error("TYPESENSE_URL is not a valid URL");
  }
  const protocol = u.protocol.replace(/:$/, "");
  if (protocol !== "http" && protocol !== "https") throw new Error(`TYPESENSE_URL must use http or https, not ${protocol}`);
  const port = u.port ? Number(u.port) : protocol === "https" ? 443 : 80;
  const path = u.pathname.replace(/\/+$/, "");
  return { host: u.hostname, port, protocol, ...(path ? { path } : {}) };
}

/**
 * Listing search on Typesense, through the official client. The scope (tenant, access, networks, public
 * surface) is serialized from a typed AST and ANDed around every filter in its own parentheses; the user's
 * filters are serialized from their ASTs with every value quoted, never from the raw `filter_by` text.
 * The same client also writes the collection (`SearchIndexWriter`), reached through `searchIndexWriter()`.
 */
export class TypesenseSearchEngine implements SearchEngine, SearchIndexWriter {
  readonly name = "typesense" as const;
  readonly client: Client;

  constructor(
    url: string,
    apiKey: string,
    readonly collection: string = config().TYPESENSE_COLLECTION,
    options: TypesenseEngineOptions = {},
  ) {
    this.client = new Client({
      nodes: [nodeFromUrl(url)],
      apiKey,
      connectionTimeoutSeconds: options.connectionTimeoutSeconds ?? 5,
      numRetries: options.numRetries ?? 2,
      retryIntervalSeconds: options.retryIntervalSeconds ?? 0.1,
      logLevel: options.logLevel ?? "warn",
    });
  }

  /**
   * One `multi_search` round trip (a POST, so a long `filter_by` never meets URL limits) with two searches: the
   * request, and a `per_page: 0` count of the scope for `out_of` (Typesense's own `out_of` counts every tenant's
   * documents in the collection, which the PostgreSQL engine does not reveal either).
   */
  async search(scope: SearchScope, req: SearchRequest): Promise<SearchResult> {
    const params = toSearchParams(scope, req);
    const count = { q: "*", filter_by: `(${scopeToFilter(scope)})`, per_page: 0, page: 1 };
    let res: { results: TypesenseSearchResponse[] };
    try {
      res = (await this.client.multiSearch.perform({
        searches: [
          { collection: this.collection, ...params },
          { collection: this.collection, ...count },
        ],
      })) as unknown as { results: TypesenseSearchResponse[] };
    } catch (e) {
      throw toSearchError(e);
    }
    const [main, scoped] = res.results ?? [];
    for (const r of [main, scoped]) {
      if (!r) throw searchErrorFor(undefined, "multi_search returned fewer results than searches");
      if (r.error !== undefined || (r.code !== undefined && r.code !== 200)) throw searchErrorFor(r.code, String(r.error ?? "unknown error"));
    }
    return fromTypesense(main, scope, req, { outOf: scoped.found, collection: this.collection });
  }

  /** Creates the collection if missing (and adds fields the registry gained since). */
  ensureCollection(): Promise<EnsureResult> {
    return ensureCollection(this.client, this.collection);
  }

  /**
   * Upserts (full replace) in batches of 500. Every batch is sent even when one fails; then, if any document
   * failed (conversion or import), throws one error naming the failures.
   */
  async upsertDocuments(docs: IndexedDocument[]): Promise<{ upserted: number }> {
    const failures: { id: string; error: string }[] = [];
    let upserted = 0;
    for (let i = 0; i < docs.length; i += IMPORT_BATCH) {
      const batch: TypesenseDocument[] = [];
      for (const d of docs.slice(i, i + IMPORT_BATCH)) {
        try {
          batch.push(toTypesenseDoc(d.doc, d.access));
        } catch (e) {
          failures.push({ id: String(d.doc?.id ?? "?"), error: e instanceof Error ? e.message : String(e) });
        }
      }
      if (!batch.length) continue;
      let results: ImportResponse[];
      try {
        results = await this.client.collections(this.collection).documents().import(batch, { action: "upsert", throwOnFail: false });
      } catch (e) {
        if (e instanceof Errors.ImportError) results = e.importResults;
        else throw toServiceError(e);
      }
      results.forEach((r, j) => {
        if (r.success) upserted++;
        else failures.push({ id: r.id ?? batch[j]?.id ?? "?", error: r.error });
      });
    }
    if (failures.length) {
      const shown = failures
        .slice(0, 5)
        .map((f) => `${f.id}: ${f.error}`)
        .join("; ");
      throw new Error(
        `Typesense upsert into "${this.collection}": ${failures.length} of ${docs.length} documents failed (${upserted} upserted). ` +
          `${shown}${failures.length > 5 ? `; and ${failures.length - 5} more` : ""}`,
      );
    }
    return { upserted };
  }

  /** Deletes by id (unknown ids are ignored), in batches of 100 ids per `filter_by`. */
  async deleteDocuments(ids: string[]): Promise<{ deleted: number }> {
    const safe = [...new Set(ids.filter((id) => SAFE_ID.test(id)))];
    let deleted = 0;
    for (let i = 0; i < safe.length; i += DELETE_BATCH) {
      const list = safe
        .slice(i, i + DELETE_BATCH)
        .map((id) => `\`${id}\``)
        .join(", ");
      try {
        const r = await this.client
          .collections(this.collection)
          .documents()
          .delete({ filter_by: `id:[${list}]` });
        deleted += r.num_deleted;
      } catch (e) {
        throw toServiceError(e);
      }
    }
    return { deleted };
  }
}
