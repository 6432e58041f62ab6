import { z } from "zod";
import { isSitePath } from "../util/site-path";

/**
 * Links stored for display (photos, logos, avatars, videos). Only http(s): a `javascript:` or
 * `data:` URL would become script on the public pages that render these fields.
 */
export const HttpUrlSchema = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000);

/** An http(s) URL, or a path on this service such as `/demo/photo-01.svg` (its public assets). */
export const UrlOrPathSchema = z
  .string()
  .max(2000)
  .refine((v) => isSitePath(v) || HttpUrlSchema.safeParse(v).success, "must be an http(s) URL or a path starting with '/'")
  .meta({ format: "uri-reference" });
