/**
 * Every rate limit the service applies, by name: how many points a key may spend in a window.
 * The store key is `{keyPrefix}:{key}` in the shared `rate_limits` table, so the prefixes stay
 * what they were when each limiter lived in its own module (counts survive an upgrade).
 */
export type RatePolicy = {
  /** Name in the IETF `RateLimit-Policy` header. */
  name: string;
  points: number;
  windowSeconds: number;
  keyPrefix: string;
  /** Which switch turns the policy off for load tests (`PUBLIC_RATE_LIMITS`, `MESSAGING_RATE_LIMITS`); none: always on. */
  switch?: "public" | "messaging";
  /**
   * Refuse a key over its limit from this process's memory until the window ends (no store write).
   * Off where points are given back (a right password), which memory would not see.
   */
  blockInMemory?: boolean;
};

const perMinute = (name: string, points: number): RatePolicy => ({ name, points, windowSeconds: 60, keyPrefix: `sites:${name}`, switch: "public" });

/** Spec 2 §8: requests per minute per client address and endpoint group of the public sites interface. */
export const SITE_POLICIES = {
  site: perMinute("site", 100), // resolve, public-config, property detail
  content: perMinute("content", 60), // search, similar, developments, CMS, brokers, share links
  locations: perMinute("locations", 30),
  // Pricing tool helpers (spec 2 §4 leaves their limits open): autocomplete runs per keystroke,
  // an estimate per form change, a lead once per visit.
  pricing_autocomplete: perMinute("pricing_autocomplete", 120),
  pricing_estimate: perMinute("pricing_estimate", 30),
  pricing_lead: perMinute("pricing_lead", 10),
  // A rendered site's own lead form (`POST /lead`): a person sends a few at most; a script, many.
  site_lead: perMinute("site_lead", 10),
  // Web chat (issue 35): a visitor opens a session or two, types a message every few seconds at
  // most, and reads (polls, reconnects its stream) now and then; a script does each far more.
  chat_session: perMinute("chat_session", 10),
  chat_message: perMinute("chat_message", 30),
  chat_read: perMinute("chat_read", 60),
  // Favourites (issue 37): the browser syncs after a heart is toggled (debounced), on the compare
  // view and on listing pages once identified; a person does a few a minute, a script far more.
  visitor_favourites: perMinute("visitor_favourites", 30),
  // Visit booking (issue 37): the slots are read as a listing page opens and after each booking;
  // a person books a visit or two, a script would try to fill a broker's week.
  visit_slots: perMinute("visit_slots", 60),
  visit_booking: perMinute("visit_booking", 5),
  // Saved searches (issue 37): a visitor saves one or two; each one sends a confirmation message.
  saved_search: perMinute("saved_search", 5),
} as const satisfies Record<string, RatePolicy>;
export type SitePolicyName = keyof typeof SITE_POLICIES;

/** Wrong passwords a share link takes in 15 minutes before it refuses every attempt (counted per link, not per address). */
export const SHARE_PASSWORD_POLICY: RatePolicy = {
  name: "share_password",
  points: 5,
  windowSeconds: 15 * 60,
  keyPrefix: "share:password",
  blockInMemory: false,
};

/** Spec 1 §8: 1000 requests an hour per API key on messaging, shared with the tool interface (`/api/mcp`). */
export const MESSAGING_POLICY: RatePolicy = { name: "messaging", points: 1000, windowSeconds: 3600, keyPrefix: "messaging", switch: "messaging" };
