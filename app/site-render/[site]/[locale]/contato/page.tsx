import type { Metadata } from "next";
import { getTranslations } from "@/app/site-render/_site/translations";
import { loadSiteView } from "@/app/site-render/_site/context";
import { pageMetadata } from "@/app/site-render/_site/metadata";
import { LeadForm } from "@/app/site-render/_site/components/lead-form";

type Props = { params: Promise<{ site: string; locale: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const t = await getTranslations("lead");
  return pageMetadata(site, { title: `${t("contactTitle")} | ${site.name}`, description: `${t("contactTitle")} — ${site.name}`, path: "/contato" });
}

/** Every site has a contact page with the lead form (it goes to the site's marketing channel). */
export default async function ContactPage({ params, searchParams }: Props) {
  const { site: s, locale } = await params;
  const site = await loadSiteView(s, locale);
  const t = await getTranslations("lead");
  const q = await searchParams;
  return (
    <div className="wrap section" style={{ maxWidth: 680 }}>
      <h1>{t("contactTitle")}</h1>
      <LeadForm site={site} path="/contato" outcome={typeof q.lead === "string" ? q.lead : undefined} title={site.name} />
    </div>
  );
}
