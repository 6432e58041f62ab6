/** The service's own home page: what works today, each with a link to try it. */
const AVAILABLE: { title: string; what: string; href: string; path: string }[] = [
  {
    title: "Listings and properties",
    what: "Publish properties with nested sale and rental listings, translations, photos and developments; list, read, update and delete listings.",
    href: "/api/docs#/Listings",
    path: "/api/v1/real-estate/listings",
  },
  {
    title: "Listing search",
    what: "Full-text search in Portuguese with typo tolerance, typed and raw filters, facets, geo radius, and partner networks' listings.",
    href: "/api/docs#/Listings",
    path: "/api/v1/real-estate/listings/search",
  },
  {
    title: "Deals",
    what: "The sales and rental funnel with contacts, custom fields, stages and round-robin distribution from marketing channels.",
    href: "/api/docs#/Deals",
    path: "/api/v1/crm/deals",
  },
  {
    title: "Tenant settings, members and API keys",
    what: "Workflow stages, languages, branding, property types; members with roles; broad and restricted keys, revoked at once.",
    href: "/api/docs#/Settings",
    path: "/api/v1/settings",
  },
  {
    title: "Marketing channels and partner networks",
    what: "Channels with distribution queues; networks that share listings between agencies.",
    href: "/api/docs#/Marketing%20channels",
    path: "/api/v1/settings/marketing-channels",
  },
  {
    title: "Outbound events (webhooks)",
    what: "Every change is sent, signed (HMAC) and in order per tenant, with retries, a delivery log and redelivery.",
    href: "/api/docs#/Webhooks",
    path: "/api/v1/settings/webhooks",
  },
  {
    title: "Operator API",
    what: "Create tenants with their owner and first API key (operator token).",
    href: "/api/docs#/Operator",
    path: "/api/admin/tenants",
  },
  {
    title: "Public sites",
    what: "Tenants' websites (owner or admin keys) and the unauthenticated sites interface any origin reads them through.",
    href: "/api/docs#/Public%20sites",
    path: "/api/v1/sites · /api/sites/resolve",
  },
  {
    title: "Inbound leads",
    what: "Portals and sites post leads to a channel's webhook; each becomes exactly one attributed, distributed deal.",
    href: "/api/docs#/Marketing%20channels",
    path: "/api/webhooks/channels/{pathToken}",
  },
  {
    title: "Rendered tenant websites",
    what: "Each published site served by its own domain: Puck home page, catalogue with filters, location, listing, development and CMS pages, in pt-BR, /en and /es. The demo agency's is at demo.localhost.",
    href: "/api/docs#/Sites",
    path: "{site domain}/ · /imoveis · /imovel/{code}/{slug}",
  },
  {
    title: "Share links, share pages and the pricing tool",
    what: "Links to a listing, shortlist, seller report or visit itinerary that a client opens on a phone (/p/{token}, with password, expiry and link previews); a homeowner's valuation flow (/c/{token}); brokers preview what they send at /preview/share.",
    href: "/api/docs#/Share%20links",
    path: "/api/v1/share-links · /p/{token} · /c/{token} · /preview/share",
  },
  {
    title: "Messaging",
    what: "Brokers' WhatsApp channels through WAHA or the Cloud API: conversations with live history, gated replies and sends, labels, message events.",
    href: "/api/docs#/Messaging",
    path: "/api/v1/messaging/conversations · /api/v1/messaging/reply",
  },
  {
    title: "Tasks, offers and transactions",
    what: "Visits and tasks, offers and counter-offers, transactions with contracts signed through an e-signature provider and payments confirmed by a payment provider.",
    href: "/api/docs#/Transactions",
    path: "/api/v1/crm/tasks · /api/v1/crm/offers · /api/v1/crm/transactions",
  },
  {
    title: "Tool interface (MCP)",
    what: "The messaging and CRM actions as Model Context Protocol tools, with the API key's own permissions.",
    href: "/api/docs#/Tool%20interface%20(MCP)",
    path: "/api/mcp",
  },
  {
    title: "Health probes",
    what: "Liveness and readiness for container orchestrators, without credentials.",
    href: "/api/health/ready",
    path: "/api/health · /api/health/ready",
  },
];

export default function Home() {
  return (
    <main style={{ maxWidth: 760, margin: "0 auto", padding: "48px 20px 64px", lineHeight: 1.55 }}>
      <h1 style={{ fontSize: "2rem", margin: "0 0 8px" }}>ImobiCRM</h1>
      <p style={{ margin: "0 0 24px", color: "#3d4651" }}>
        A multi-tenant real-estate CRM service for integrators. The <code>/api/v1</code> endpoints take <code>Authorization: Bearer &lt;API key&gt;</code> (
        <code>npm run demo</code> prints an owner&apos;s and a broker&apos;s key for the demo agency); the public sites interface, the channel webhooks and the
        health probes take none.
      </p>
      <p style={{ margin: "0 0 32px" }}>
        <a href="/api/docs" style={{ fontWeight: 600 }}>
          API reference
        </a>{" "}
        · <a href="/api/docs/openapi.json">OpenAPI 3.1 JSON</a>
      </p>
      <h2 style={{ fontSize: "1.25rem", margin: "0 0 12px" }}>What works today</h2>
      <ul style={{ listStyle: "none", padding: 0, margin: 0, display: "grid", gap: 12 }}>
        {AVAILABLE.map((a) => (
          <li key={a.title} style={{ border: "1px solid #d5dbe1", borderRadius: 8, padding: "12px 16px" }}>
            <a href={a.href} style={{ fontWeight: 600 }}>
              {a.title}
            </a>
            <div style={{ color: "#3d4651" }}>{a.what}</div>
            <code style={{ fontSize: "0.85rem", color: "#1b1f24", wordBreak: "break-all" }}>{a.path}</code>
          </li>
        ))}
      </ul>
    </main>
  );
}
