import { describe, expect, it } from "vitest";
import { robotsTxt, sitemapXml } from "../../../lib/sites/render/sitemap";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { parseRichText, RichText } from "../../../app/_ui/rich-text";
import { renderablePage } from "../../../app/site-render/_site/puck/page-data";
import { fallbackLang } from "../../../lib/listings/view/localized-text";

describe("sitemapXml", () => {
  it("lists each path in every language with its alternates, escaped", () => {
    const xml = sitemapXml("http://a.localhost:3000", ["pt-BR", "en"], [{ path: "/imovel/AP1/x&y", lastmod: "2026-01-02T00:00:00.000Z" }], (p, l) =>
      l === "pt-BR" ? p : `/${l}${p}`,
    );
    expect(xml).toContain("<loc>http://a.localhost:3000/imovel/AP1/x&amp;y</loc>");
    expect(xml).toContain("<loc>http://a.localhost:3000/en/imovel/AP1/x&amp;y</loc>");
    expect(xml.match(/<url>/g)).toHaveLength(2);
    expect(xml).toContain('hreflang="en" href="http://a.localhost:3000/en/imovel/AP1/x&amp;y"');
    expect(xml).toContain("<lastmod>2026-01-02T00:00:00.000Z</lastmod>");
  });
});

describe("robotsTxt", () => {
  it("points to the sitemap, or disallows everything on a preview", () => {
    expect(robotsTxt("https://x.com", { indexable: true })).toContain("Sitemap: https://x.com/sitemap.xml");
    expect(robotsTxt("https://x.com", { indexable: false })).toBe("User-agent: *\nDisallow: /\n");
  });
});

describe("parseRichText", () => {
  it("keeps text and structure, drops scripts, styles and attributes", () => {
    const html = renderToStaticMarkup(
      createElement(RichText, {
        html: '<p class="x">Olá <strong>mundo</strong> &amp; <a href="javascript:alert(1)" onclick="x()">link</a> <a href="https://ok.example/">ok</a><img src=x onerror=alert(2)><script>alert(3)</script><style>p{}</style></p>',
      }),
    );
    expect(html).toBe(
      '<div class="rich"><p>Olá <strong>mundo</strong> &amp; <a>link</a> <a href="https://ok.example/" rel="noopener noreferrer">ok</a></p></div>',
    );
  });
  it("survives unclosed and stray tags", () => {
    expect(() => parseRichText("<p><em>a</p></em></div><")).not.toThrow();
    expect(JSON.stringify(parseRichText("a < b"))).toContain("<");
  });
});

describe("renderablePage", () => {
  it("leaves unknown component types out and gives every block an id", () => {
    const { data, firstId } = renderablePage(
      { root: { props: { title: "x" } }, content: [{ type: "Hero", props: {} }, { type: "Nope", props: { id: "n" } }, { type: "Text" }, "junk", null] },
      new Set(["Hero", "Text"]),
      { siteId: "s", page: "home", locale: "pt-BR" },
    );
    expect(data.content.map((c) => c.type)).toEqual(["Hero", "Text"]);
    expect(data.content.every((c) => typeof c.props.id === "string")).toBe(true);
    expect(firstId).toBe(data.content[0].props.id);
  });
  it("shows the tenant's translation of each text prop in the page's language, Portuguese where there is none", () => {
    const raw = {
      root: { props: { title: "Imóveis em SP", title_en: "Homes in SP", description: "Descrição", description_es: "  " } },
      content: [
        {
          type: "Hero",
          props: {
            id: "h",
            title: "Encontre seu imóvel",
            title_en: "Find your home",
            title_es: "Encuentre su casa",
            subtitle: "Só em português",
            showSearch: true,
          },
        },
      ],
    };
    const page = (locale: "pt-BR" | "en" | "es") => renderablePage(raw, new Set(["Hero"]), { siteId: "s", page: "home", locale }).data;
    expect(page("en").content[0].props).toMatchObject({ title: "Find your home", subtitle: "Só em português", showSearch: true });
    expect(page("es").content[0].props.title).toBe("Encuentre su casa");
    expect(page("pt-BR").content[0].props.title).toBe("Encontre seu imóvel");
    expect(page("en").root.props).toMatchObject({ title: "Homes in SP", description: "Descrição" });
    expect(page("es").root.props).toMatchObject({ title: "Imóveis em SP", description: "Descrição" }); // a blank translation falls back
    // Only words: an address, filter or size keeps what the tenant set for every language.
    const cta = renderablePage(
      {
        content: [
          {
            type: "CallToAction",
            props: {
              buttonHref: "/contato",
              buttonHref_en: "https://elsewhere.example",
              city: "Santos",
              city_en: "Other",
              buttonLabel: "Fale",
              buttonLabel_en: "Talk",
            },
          },
        ],
      },
      new Set(["CallToAction"]),
      { siteId: "s", page: "home", locale: "en" },
    );
    expect(cta.data.content[0].props).toMatchObject({ buttonHref: "/contato", city: "Santos", buttonLabel: "Talk" });
  });
  it("accepts garbage without throwing", () => {
    for (const raw of [null, 5, "x", { content: "no" }, { root: null, content: [{ type: 3 }] }]) {
      expect(renderablePage(raw, new Set(["Hero"]), { siteId: "s", page: "p", locale: "pt-BR" }).data.content).toEqual([]);
    }
  });
});

describe("fallbackLang", () => {
  it("marks listing text shown in Portuguese on /en or /es, and nothing else", () => {
    const doc = { title: "Casa", title_en: "House", title_es: " ", description: "Sala ampla" };
    expect(fallbackLang(doc, "title", "en")).toBeUndefined();
    expect(fallbackLang(doc, "title", "es")).toBe("pt-BR");
    expect(fallbackLang(doc, "description", "en")).toBe("pt-BR");
    expect(fallbackLang(doc, "title", "pt-BR")).toBeUndefined();
    expect(fallbackLang({ title: "" }, "title", "en")).toBeUndefined();
  });
});
