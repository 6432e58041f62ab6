import type { Translator } from "@/lib/i18n/translator";
import type { BrokerCardView } from "@/lib/listings/view/broker-card";

/** The broker (spec 2 §2.5): photo, name, CRECI, WhatsApp and call. Never an e-mail. Sites and share pages alike. */
export function BrokerCard({ broker, t }: { broker: BrokerCardView; t: Translator }) {
  return (
    <section className="box broker-card" aria-labelledby="broker-title">
      <h2 id="broker-title">{t("broker.title")}</h2>
      <div className="broker">
        {broker.photo && (
          // eslint-disable-next-line @next/next/no-img-element
          <img src={broker.photo} alt="" width={64} height={64} loading="lazy" decoding="async" />
        )}
        <div>
          <p className="name">{broker.name}</p>
          {broker.creci && <p className="muted">{t("broker.creci", { creci: broker.creci })}</p>}
        </div>
      </div>
      {broker.whatsapp && (
        <p className="actions">
          <a className="btn" href={broker.whatsapp} rel="noopener noreferrer">
            {t("broker.whatsapp")}
          </a>
          {broker.call && (
            <a className="btn secondary" href={broker.call}>
              {t("broker.call")}
            </a>
          )}
        </p>
      )}
    </section>
  );
}
