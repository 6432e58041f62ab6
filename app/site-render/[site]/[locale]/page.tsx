import type { Metadata } from "next";
import { loadSiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { translatedFields } from "@/lib/sites/view/translated-fields";
import { DEFAULT_HOME, hasContent, PuckPage } from "@/app/site-render/_site/components/puck-page";
import { JsonLd } from "@/app/site-render/_site/components/json-ld";
import { agentJsonLd } from "@/app/site-render/_site/components/agent";

type Props = { params: Promise<{ site: string; locale: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const root = translatedFields((site.config.configuration.puck_data as { root?: { props?: Record<string, unknown> } }).root?.props ?? {}, site.locale);
  const title = typeof root.title === "string" && root.title ? root.title : site.name;
  const description =
    typeof root.description === "string" && root.description
      ? root.description
      : `${site.name}: ${site.config.tenantConfig.propertyTypes
          .slice(0, 3)
          .map((p) => p.label.toLowerCase())
          .join(", ")}…`;
  return { ...pageMetadata(site, { title, description, path: "/" }), title: { absolute: title } };
}

/** The site's home: its `puck_data` page (or a sensible default when none is saved yet). */
export default async function HomePage({ params, searchParams }: Props) {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const data = site.config.configuration.puck_data;
  const page = hasContent(data) ? data : DEFAULT_HOME;
  const first = (page as { content: { type: string }[] }).content[0]?.type;
  return (
    <>
      {first !== "Hero" && <h1 className="sr-only">{site.name}</h1>}
      <PuckPage site={site} data={page} page="home" path="/" query={await searchParams} />
      <JsonLd data={agentJsonLd(site)} />
    </>
  );
}
