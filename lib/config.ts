import { isIP } from "node:net";
import os from "node:os";
import { z } from "zod";

/**
 * Every setting the service reads from the environment, parsed once. With nothing set the
 * service runs on the embedded PGlite database under `.data/`.
 */
const boolString = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`: what node's resolver accepts as a server. */
function isServerAddress(v: string): boolean {
  const m = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v) ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(v);
  if (m) return isIP(m[1]) !== 0 && (m[2] === undefined || Number(m[2]) <= 65535);
  return isIP(v) === 6;
}

const ConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  DATABASE_URL: z.string().url().optional(),
  /**
   * PostgreSQL itself when DATABASE_URL goes through a transaction-mode pooler (PgBouncer): what
   * needs a session (migrations under their advisory lock, LISTEN of the jobs worker and of chat
   * streams) connects here. Unset: DATABASE_URL serves both.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /** Pool size of the postgres.js client. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** Seconds a connection to PostgreSQL may take (TCP and handshake) before the query fails; start-up gives up after this plus a margin. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /** Prepared statements on PostgreSQL (one round trip per query); `off` behind PgBouncer in transaction mode. */
  DATABASE_PREPARED_STATEMENTS: z.enum(["on", "off"]).default("on"),
  /** Folder for the embedded database, the generated operator token and demo credentials. */
  DATA_DIR: z.string().min(1).default(".data"),
  /** Where PGlite keeps its files; `memory://` keeps it in memory (tests). Default `<DATA_DIR>/pglite`. */
  PGLITE_DIR: z.string().min(1).optional(),
  /** Bearer token of the operator API (`/api/admin`). Generated into `<DATA_DIR>/operator-token` when unset. */
  OPERATOR_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** Bearer token that may read `GET /api/metrics` (besides the operator token), for a Prometheus scraper. */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  /** This node's name, on every log line and metric (several nodes behind a load balancer). */
  NODE_NAME: z
    .string()
    .min(1)
    .max(100)
    .default(() => os.hostname()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Public name of the service, used in the outbound webhook User-Agent and the API description. */
  SERVICE_NAME: z.string().min(1).default("ImobiCRM"),
  /** Apply pending migrations when the server starts (default true). */
  MIGRATE_ON_START: boolString.default(true),
  /** Seconds between delivery attempts of a failed event (spec: about a minute). */
  EVENTS_RETRY_INTERVAL_SECONDS: z.coerce.number().min(0).max(86_400).default(60),
  /** How often the embedded runner looks for due events, in milliseconds. */
  EVENTS_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /** Nominatim-compatible geocoder (`GET {url}/search?format=json&q=...`) for addresses of captured properties; unset: no coordinates. */
  GEOCODER_URL: z.string().url().optional(),
  /** A lead claimed this long ago and still `processing` belongs to a worker that died: another run takes it over. */
  LEAD_CLAIM_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  /** Tenants served at the same time in one delivery cycle. */
  EVENTS_DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(32),
  /** Timeout of one webhook POST (spec: 30 seconds). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** Allow webhook URLs that resolve to private or loopback addresses in production. */
  WEBHOOKS_ALLOW_PRIVATE_URLS: boolString.default(false),
  /** Typesense server for listing search (e.g. http://typesense:8108); unset: search runs in PostgreSQL. */
  TYPESENSE_URL: z.string().url().optional(),
  TYPESENSE_API_KEY: z.string().min(1).optional(),
  /** Raster tiles of the catalogue's map view (`{z}/{x}/{y}`, optional `{s}`); tests serve them from 127.0.0.1. */
  MAP_TILES_URL: z.string().max(500).default("https://tile.openstreetmap.org/{z}/{x}/{y}.png"),
  /** The tiles' attribution, shown on the map (HTML as Leaflet takes it). */
  MAP_TILES_ATTRIBUTION: z.string().max(500).default('&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors'),
  /** Longest life of a cached search result; results are reused only while no commit changed the tenant's documents (0: off). */
  SEARCH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(86_400_000).default(600_000),
  /**
   * Rendered site pages served from a per-process cache invalidated by each commit that changes
   * what they show (through PostgreSQL NOTIFY across processes and nodes); unset: on in production.
   */
  PAGE_CACHE: z.enum(["on", "off"]).optional(),
  /**
   * Tenants with at least this many search documents are searched from an in-memory index (filters,
   * facets and sorts without text; text and partner networks stay on PostgreSQL).
   */
  SEARCH_MEMORY_MIN_DOCS: z.coerce.number().int().min(0).max(100_000_000).default(10_000),
  /** Most documents the in-memory indexes of one process hold, all tenants together (least recently used go first); 0: off. */
  SEARCH_MEMORY_MAX_DOCS: z.coerce.number().int().min(0).max(100_000_000).default(500_000),
  /** Collection name on Typesense. */
  TYPESENSE_COLLECTION: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("listings"),
  /** How long a graceful stop (SIGTERM) waits for in-flight requests and the running job before closing the database. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Take the client address of public rate limits from the first X-Forwarded-For hop (behind a trusted reverse proxy). */
  TRUST_PROXY: boolString.default(false),
  /** `off` disables the public rate limits (load tests only). */
  PUBLIC_RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /**
   * The service's SMTP server for transactional mail of tenants without an e-mail channel (alert
   * confirmations, alerts, visit bookings): `smtp://user:pass@host:587` (STARTTLS when offered),
   * `smtps://…:465`; unset: only tenants with an e-mail channel send mail.
   */
  SMTP_URL: z
    .string()
    .url()
    .refine((v) => /^smtps?:\/\//i.test(v), "must be an smtp:// or smtps:// URL")
    .optional(),
  /** Sender address of mail sent through SMTP_URL (the tenant's brand name is the display name); default `no-reply@` the SMTP host. */
  MAIL_FROM: z.string().email().optional(),
  /** Local hour (0-23) at which daily saved-search digests go out, in SAVED_SEARCH_TIMEZONE. */
  SAVED_SEARCH_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(8),
  /** Time zone of the daily digest hour (IANA name). */
  SAVED_SEARCH_TIMEZONE: z
    .string()
    .refine((v) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: v });
        return true;
      } catch {
        return false;
      }
    }, "must be an IANA time zone such as America/Sao_Paulo")
    .default("America/Sao_Paulo"),
  /** Key (any text of 32+ characters) that encrypts messaging gateway credentials at rest; unset: one generated into `<DATA_DIR>/messaging-secret-key`. */
  MESSAGING_SECRET_KEY: z.string().min(32, "must be at least 32 characters").optional(),
  /** Budget of one live history read from a gateway, including its one internal retry. */
  MESSAGING_HISTORY_BUDGET_MS: z.coerce.number().int().min(100).max(60_000).default(4000),
  /** Timeout of one send through a gateway. */
  MESSAGING_SEND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** `off` disables the messaging API key rate limit of 1000 requests per hour (load tests only). */
  MESSAGING_RATE_LIMITS: z.enum(["on", "off"]).default("on"),
  /**
   * Shared domain of `{type: 'auto'}` share links: `https://{tenant-slug}.{SHARE_DOMAIN}/p/{token}`
   * (http under `localhost`). It and every name under it are reserved: no site may take them.
   */
  SHARE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+(:\d{1,5})?$/, "must be a lowercase host name, optionally with a port")
    // Every name under it is reserved for share links: `localhost` or an IP address would leave
    // no local name for sites (the default was `localhost:3000` before domains were reserved).
    .refine(
      (v) => !/^(localhost|[\d.]+)(:\d+)?$/.test(v),
      "must be a name under which tenants get share subdomains, such as share.localhost:3000 or share.example.com, not localhost or an IP address",
    )
    .default("share.localhost:3000"),
  /**
   * The service's own host names (comma-separated, optionally with ports), besides `localhost`,
   * `127.0.0.1` and `[::1]`: they serve the service (API docs, home page, previews), never a site,
   * and no site may take them.
   */
  SERVICE_HOSTS: z
    .string()
    .regex(/^\s*[a-z0-9.\-[\]:]+(\s*,\s*[a-z0-9.\-[\]:]+)*\s*$/i, "must be a comma-separated list of host names, optionally with ports")
    .optional(),
  /**
   * A domain under which the service hands out site names itself (`{tenant-slug}.{SITES_BASE_DOMAIN}`
   * and names under it), served at once without DNS proof; unset: only `*.localhost` and custom
   * domains (proven by a DNS TXT record).
   */
  SITES_BASE_DOMAIN: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/, "must be a lowercase host name without port, such as sites.example.com")
    .optional(),
  /**
   * DNS servers (comma-separated `ip` or `ip:port`) asked for the TXT records that prove a custom
   * domain; unset: the system's resolvers.
   */
  DNS_SERVERS: z
    .string()
    .refine(
      (v) => v.split(",").every((s) => isServerAddress(s.trim())),
      "must be a comma-separated list of IP addresses, optionally with :port (IPv6 with a port as [addr]:port)",
    )
    .optional(),
  /**
   * Host names (optionally `host:port`, comma-separated) the tool interface at `/api/mcp` answers on,
   * besides loopback (`localhost`, `127.0.0.1`, `[::1]`): its DNS-rebinding guard refuses any other
   * `Host`, and any `Origin` whose host is not one of them.
   */
  MCP_ALLOWED_HOSTS: z
    .string()
    .regex(/^\s*[a-z0-9.\-[\]:]+(\s*,\s*[a-z0-9.\-[\]:]+)*\s*$/i, "must be a comma-separated list of host names, optionally with ports")
    .optional(),
  /**
   * Where background work runs: in-process (the default when no Inngest server is configured),
   * in Inngest functions, in a separate `npm run jobs` worker process woken through PostgreSQL
   * NOTIFY (`worker`), or nowhere (`off`, tests).
   */
  JOBS_RUNNER: z.enum(["embedded", "inngest", "worker", "off"]).optional(),
  /** Where resized listing photos (and the originals they came from) are cached; default `<DATA_DIR>/media-cache`. */
  MEDIA_CACHE_DIR: z.string().min(1).optional(),
  /**
   * Most the photo cache (`MEDIA_CACHE_DIR`'s variants and originals) may hold, in megabytes (a
   * fraction is allowed); past it the least recently used files are removed in the background down to
   * 80 % of it. They are made again on demand.
   */
  MEDIA_CACHE_MAX_MB: z.coerce.number().positive().max(10_000_000).default(2048),
  /** Largest listing photo fetched for resizing; a larger one shows a placeholder. */
  MEDIA_SOURCE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(15 * 1024 * 1024),
  /** Time a photo's source fetch may take (connect, answer and body); past it a placeholder shows. */
  MEDIA_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
  /** How old what the service knows of a remote photo may get before a page's visit asks its source again (conditionally: an unchanged photo is not downloaded again). */
  MEDIA_SOURCE_REVALIDATE_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(86_400),
  /** Key (32+ characters) that signs photo addresses; unset: derived from the messaging secret key. */
  MEDIA_URL_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Where the demo's generated photographs live (`npm run demo` writes them); default `<DATA_DIR>/demo-photos`. */
  DEMO_PHOTOS_DIR: z.string().min(1).optional(),
  /**
   * Service-wide model provider (any OpenAI-compatible chat-completions endpoint, such as
   * https://api.openai.com/v1 or an Ollama at http://ollama:11434/v1) for tenants without their own
   * AI settings; unset: only tenants that configured one use models. Reached through the outbound guard.
   */
  AI_BASE_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//i.test(v), "must be an http(s) URL")
    .optional(),
  /** Bearer key of AI_BASE_URL (a local model server may need none). */
  AI_API_KEY: z.string().min(1).optional(),
  /** Model name at AI_BASE_URL used when a tenant names none (required with AI_BASE_URL). */
  AI_MODEL: z.string().min(1).max(200).optional(),
  /** Timeout of one model call (one chat-completions request). */
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /**
   * Agent executions one process runs side by side. They mostly wait for the model (no database
   * connection held meanwhile), so this is far above the pool size; it caps memory and the model's load.
   */
  AGENTS_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),
  /**
   * Web processes `npm start` runs on PostgreSQL, sharing the port (default: one per core); the
   * embedded database admits one (lib/server/cluster-plan.ts).
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
});

/** Settings that only make sense together. */
const CheckedConfigSchema = ConfigSchema.superRefine((c, ctx) => {
  // A provider without a model (or a model or key without a provider) is a half-done setup: say so at start.
  if (c.AI_BASE_URL && !c.AI_MODEL) ctx.addIssue({ code: "custom", path: ["AI_MODEL"], message: "is required when AI_BASE_URL is set" });
  for (const name of ["AI_MODEL", "AI_API_KEY"] as const) {
    if (c[name] && !c.AI_BASE_URL) ctx.addIssue({ code: "custom", path: [name], message: "needs AI_BASE_URL (the provider it belongs to)" });
  }
});

export type Config = z.infer<typeof ConfigSchema>;

let cached: Config | undefined;

export function config(): Config {
  if (cached) return cached;
  // An empty variable (`DATABASE_URL=`) means unset, as in most tools.
  const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = CheckedConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration (fix or unset these variables; see README, Configuration):\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/** Tests change the environment between suites; this forgets the parsed copy. */
export function resetConfigForTests(): void {
  cached = undefined;
}
