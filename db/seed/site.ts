import { createEntry } from "../../lib/cms/entries";
import { createCollection } from "../../lib/cms/collections";
import type { MemberCtx } from "../../lib/context/verb-context";
import { createSite } from "../../lib/sites/sites";

/** The demo site's domain; `*.localhost` resolves to this machine in browsers. */
export const DEMO_SITE_DOMAIN = "demo.localhost";

/**
 * The demo agency's published site: a Puck home page (hero with search, featured and newest
 * listings, the blog, a call to action, a contact form), menu and footer, and a blog collection
 * with three published posts (one draft, which the site never shows).
 */
export async function createDemoSite(ctx: MemberCtx, developmentBuildingId: string): Promise<{ id: string; domain: string }> {
  const site = await createSite(ctx, {
    name: "Casa Nova Imóveis",
    domain: DEMO_SITE_DOMAIN,
    published: true,
    configuration: {
      puck_data: {
        root: {
          props: {
            title: "Casa Nova Imóveis — apartamentos e casas em São Paulo",
            title_en: "Casa Nova Imóveis — apartments and houses in São Paulo",
            title_es: "Casa Nova Imóveis — departamentos y casas en São Paulo",
            description: "Imóveis à venda e para alugar em São Paulo, Campinas e Santos, com fotos, preços e corretores que conhecem cada bairro.",
            description_en: "Homes for sale and for rent in São Paulo, Campinas and Santos, with photos, prices and brokers who know every neighborhood.",
            description_es: "Inmuebles en venta y en alquiler en São Paulo, Campinas y Santos, con fotos, precios y corredores que conocen cada barrio.",
          },
        },
        content: [
          {
            type: "Hero",
            props: {
              id: "hero",
              title: "Encontre o imóvel certo para a sua próxima fase",
              title_en: "Find the right home for your next chapter",
              title_es: "Encuentre el inmueble ideal para su próxima etapa",
              subtitle: "Apartamentos, casas e lançamentos selecionados por corretores que conhecem cada bairro.",
              subtitle_en: "Apartments, houses and new developments chosen by brokers who know every neighborhood.",
              subtitle_es: "Departamentos, casas y lanzamientos seleccionados por corredores que conocen cada barrio.",
              showSearch: true,
            },
          },
          {
            type: "FeaturedListings",
            props: { id: "featured", title: "Destaques da semana", title_en: "This week's highlights", title_es: "Destacados de la semana", limit: 3 },
          },
          { type: "ListingGrid", props: { id: "rent", title: "Para alugar", title_en: "For rent", title_es: "En alquiler", businessType: "rental", limit: 3 } },
          {
            type: "ListingGrid",
            props: { id: "latest", title: "Novidades à venda", title_en: "New for sale", title_es: "Novedades en venta", businessType: "sale", limit: 6 },
          },
          {
            type: "RichText",
            props: {
              id: "about",
              content:
                "<h2>Sobre a Casa Nova</h2><p>Há mais de <strong>15 anos</strong> ajudamos famílias a comprar, vender e alugar imóveis com segurança. Cada anúncio é visitado por um corretor credenciado (CRECI) antes de ir ao ar.</p>",
              content_en:
                "<h2>About Casa Nova</h2><p>For more than <strong>15 years</strong> we have helped families buy, sell and rent homes safely. A licensed broker (CRECI) visits every listing before it goes live.</p>",
              content_es:
                "<h2>Sobre Casa Nova</h2><p>Hace más de <strong>15 años</strong> ayudamos a familias a comprar, vender y alquilar inmuebles con seguridad. Un corredor matriculado (CRECI) visita cada anuncio antes de publicarlo.</p>",
            },
          },
          {
            type: "CmsList",
            props: { id: "blog", title: "Do nosso blog", title_en: "From our blog", title_es: "De nuestro blog", collection: "blog", limit: 3 },
          },
          {
            type: "CallToAction",
            props: {
              id: "cta",
              title: "Quer vender ou alugar seu imóvel?",
              title_en: "Selling or renting out your home?",
              title_es: "¿Quiere vender o alquilar su inmueble?",
              text: "Avaliamos gratuitamente e anunciamos nos principais portais.",
              text_en: "We value it for free and list it on the main portals.",
              text_es: "Lo tasamos gratis y lo publicamos en los principales portales.",
              buttonLabel: "Fale com a gente",
              buttonLabel_en: "Talk to us",
              buttonLabel_es: "Hable con nosotros",
              buttonHref: "/contato",
            },
          },
          { type: "ContactForm", props: { id: "contact", title: "Fale conosco", title_en: "Contact us", title_es: "Contáctenos" } },
        ],
      },
      siteConfiguration: {
        brand: { name: "Casa Nova Imóveis", primaryColor: "#0b5cad", logoUrl: null },
        menu: [
          { label: "Comprar", label_en: "Buy", label_es: "Comprar", href: "/imoveis?type=sale" },
          { label: "Alugar", label_en: "Rent", label_es: "Alquilar", href: "/imoveis?type=rental" },
          { label: "Lançamento", label_en: "New development", label_es: "Lanzamiento", href: `/empreendimento/${developmentBuildingId}` },
          { label: "Blog", href: "/blog" },
        ],
        footer: {
          text: "Imobiliária em São Paulo desde 2010.",
          text_en: "Real estate agency in São Paulo since 2010.",
          text_es: "Inmobiliaria en São Paulo desde 2010.",
          creci: "J-34.567",
          address: "Rua Harmonia, 123 — Vila Madalena, São Paulo/SP",
          phone: "+55 11 3456-7890",
          email: "contato@casanovaimoveis.example",
          links: [{ label: "Blog", href: "/blog" }],
        },
      },
      otherConfigs: null,
    },
  });
  const blog = await createCollection(ctx, {
    siteId: site.id,
    body: {
      name: "Blog",
      slug: "blog",
      fields: [
        { id: "title", label: "Título", type: "text", required: true },
        { id: "excerpt", label: "Resumo", type: "text" },
        { id: "body", label: "Texto", type: "richText" },
      ],
    },
  });
  const posts = [
    [
      "como-financiar-seu-primeiro-imovel",
      "Como financiar seu primeiro imóvel",
      "SAC ou Price? Entenda as tabelas e quanto de entrada você precisa.",
      "<p>Antes de visitar imóveis, simule o financiamento: a <strong>tabela SAC</strong> começa com parcelas maiores que diminuem ao longo do tempo; a <strong>tabela Price</strong> mantém parcelas fixas.</p><p>Em geral os bancos financiam até 80% do valor do imóvel.</p>",
    ],
    [
      "documentos-para-alugar",
      "Documentos para alugar um imóvel",
      "A lista completa do que separar antes de propor uma locação.",
      "<p>Separe documento com foto, CPF, comprovante de renda dos últimos três meses e comprovante de residência.</p><ul><li>Fiador, seguro-fiança ou caução</li><li>Referências de locações anteriores</li></ul>",
    ],
    [
      "bairros-para-morar-em-sao-paulo",
      "Cinco bairros para morar em São Paulo",
      "Pinheiros, Vila Mariana, Moema, Perdizes e Santana: o que cada um oferece.",
      "<p>Cada bairro tem seu ritmo. <em>Pinheiros</em> é vibrante, <em>Vila Mariana</em> é arborizada e bem servida de metrô, <em>Moema</em> fica perto do Ibirapuera.</p>",
    ],
  ];
  for (const [slug, title, excerpt, body] of posts) {
    await createEntry(ctx, {
      siteId: site.id,
      collectionId: blog.id,
      body: { slug, status: "published", fields: { title, excerpt, body }, seo: { title: `${title} | Casa Nova Imóveis`, description: excerpt } },
    });
  }
  await createEntry(ctx, { siteId: site.id, collectionId: blog.id, body: { slug: "rascunho-nao-publicado", status: "draft", fields: { title: "Rascunho" } } });
  return { id: site.id, domain: site.domain };
}
