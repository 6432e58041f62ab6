import { getTranslations } from "@/app/_site/translations";
import type { BrokerCard as Card } from "@/lib/sites/brokers";

/** The public broker card (spec 2 §2.5): photo, name, CRECI, phone and WhatsApp. Never the e-mail. */
export async function BrokerCard({ broker }: { broker: Card }) {
  const t = await getTranslations("broker");
  const digits = broker.phone?.replace(/\D/g, "") ?? "";
  return (
    <section className="box" aria-labelledby="broker-title">
      <h2 id="broker-title" style={{ fontSize: "1.1rem" }}>{t("title")}</h2>
      <div className="broker">
        {broker.imageUrl && (
          // eslint-disable-next-line @next/next/no-img-element
          <img src={broker.imageUrl} alt="" width={64} height={64} loading="lazy" decoding="async" />
        )}
        <div>
          <p style={{ margin: 0, fontWeight: 600 }}>{broker.name}</p>
          {broker.creci && <p className="muted" style={{ margin: 0 }}>{t("creci", { creci: broker.creci })}</p>}
        </div>
      </div>
      {digits && (
        <p style={{ display: "flex", gap: 8, flexWrap: "wrap", margin: "14px 0 0" }}>
          <a className="btn" href={`https://wa.me/${digits}`} rel="noopener noreferrer">{t("whatsapp")}</a>
          <a className="btn secondary" href={`tel:+${digits}`}>{t("call")}</a>
        </p>
      )}
    </section>
  );
}
