import { otherMethods } from "@/lib/http/method-not-allowed";
import { publicPreflight, publicRoute } from "@/lib/http/public-route";
import { readJson } from "@/lib/http/read-json";
import { json } from "@/lib/http/run";
import { loadPublicSite } from "@/lib/sites/load-site";
import { bookVisit } from "@/lib/visits/book-visit";
import { sendVisitConfirmation } from "@/lib/visits/confirmation";
import { sendVisitEmail } from "@/lib/visits/email-confirmation";

/** Books a visit; the confirmation is sent once the booking is committed (its failure does not undo it). */
export const POST = publicRoute<{ siteId: string; listingId: string }>("visit_booking", async ({ req, db, params }) => {
  const site = await loadPublicSite(db, params.siteId);
  const booking = await bookVisit(db, site, params.listingId, await readJson(req));
  // One after the other: the WhatsApp send writes through the database handle the mail reads from.
  const whatsapp = await sendVisitConfirmation(db, booking);
  const email = await sendVisitEmail(db, booking);
  const confirmation = whatsapp === "whatsapp" ? (email ? "both" : "whatsapp") : email ? "email" : "none";
  return json(
    {
      id: booking.task.id,
      listingId: booking.task.listingId,
      start: new Date(booking.slot.start).toISOString(),
      end: new Date(booking.slot.end).toISOString(),
      broker: booking.brokerName ? { name: booking.brokerName } : null,
      confirmation,
    },
    201,
  );
});
export const OPTIONS = publicPreflight;

/** Other methods answer a JSON 405 with `Allow`. */
export const { GET, HEAD, PUT, PATCH, DELETE } = otherMethods("POST", "OPTIONS");
