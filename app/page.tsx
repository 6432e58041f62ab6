export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: "64px auto", padding: "0 24px", lineHeight: 1.5 }}>
      <h1>ImobiCRM</h1>
      <p>
        Multi-tenant real-estate CRM service: listings and properties, deals and messaging for
        integrators, public sites and share links for home-buyers.
      </p>
      <ul>
        <li>
          <a href="/api/docs">API reference</a> (<a href="/api/docs/openapi.json">OpenAPI 3.1 JSON</a>)
        </li>
        <li>
          Authenticated API: <code>/api/v1</code> with <code>Authorization: Bearer &lt;API key&gt;</code>
        </li>
      </ul>
    </main>
  );
}
