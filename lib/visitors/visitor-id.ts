import { z } from "zod";

/**
 * The random id a visitor's browser keeps (`crypto.randomUUID()` in localStorage): it names the
 * visitor's own list and nothing else. Forms and bodies that accept it (lead form, web chat,
 * saved searches, bookings) use this one schema, so a bad id is the same 400 everywhere.
 */
export const VisitorIdSchema = z
  .uuid("must be a UUID (the id the visitor's browser keeps)")
  .transform((v) => v.toLowerCase())
  .meta({ description: "The random id the visitor's browser keeps (a UUID); its favourites are attached to the deal the visitor becomes." });
