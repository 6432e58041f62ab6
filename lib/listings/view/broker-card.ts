import { safeImageUrl } from "../../util/safe-url";
import { telLink, whatsappLink } from "./whatsapp-link";

/** A broker as the public documents give one (spec 2 §2.5): never an e-mail. */
export type BrokerInput = { name: string; imageUrl: string | null; phone: string | null; creci: string | null };

export type BrokerCardView = { name: string; photo: string | null; creci: string | null; whatsapp: string | null; call: string | null };

/** What a broker card shows: the name, a photo the page may load, CRECI, and WhatsApp and call links (with a first message for WhatsApp when given). */
export function brokerCard(b: BrokerInput, whatsappText?: string): BrokerCardView {
  return { name: b.name, photo: safeImageUrl(b.imageUrl), creci: b.creci || null, whatsapp: whatsappLink(b.phone, whatsappText), call: telLink(b.phone) };
}
