import { z } from "zod";
import type { MessagingChannelRow } from "../../../db/schema";
import { invalid } from "../../errors/domain-errors";
import { privateTargetsAllowed } from "../../outbound-fetch/address-policy";
import { assertPublicUrl } from "../../outbound-fetch/assert-public-url";
import type { Credentials } from "../providers/types";
import { normalAddress } from "./address";
import { SMTP_TLS, type SmtpSettings } from "./smtp-send";

const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*$|^\d{1,3}(?:\.\d{1,3}){3}$|^\[[0-9a-f:.]+\]$/i;

export const EmailAddressSchema = z
  .string()
  .max(254)
  .transform((v, ctx) => {
    const a = normalAddress(v);
    if (!a) ctx.addIssue({ code: "custom", message: "must be an e-mail address such as vendas@imobiliaria.com.br" });
    return a ?? v;
  })
  .meta({ description: "The channel's address: the sender of its messages (`From`).", example: "vendas@imobiliaria.com.br" });

export const SmtpInputSchema = z
  .strictObject({
    host: z.string().trim().toLowerCase().regex(HOST, "must be a host name or IP address, without scheme or port").meta({ example: "smtp.imobiliaria.com.br" }),
    port: z.number().int().min(1).max(65535).default(587),
    tls: z.enum(SMTP_TLS).optional().meta({
      description:
        "`implicit` (TLS from the first byte, usually port 465), `starttls` (required upgrade, usually 587) or `none` (only where private targets are allowed: development, tests, WEBHOOKS_ALLOW_PRIVATE_URLS). Default: `implicit` on 465, else `starttls`.",
    }),
    user: z.string().min(1).max(320).optional().meta({ description: "The SMTP login; without it the server is used without authentication." }),
    password: z.string().min(1).max(2000).optional().meta({ description: "The SMTP password. Stored encrypted; never returned." }),
  })
  .meta({ id: "SmtpSettingsInput", description: "How the channel sends: its SMTP server." });

/** `POST /api/v1/settings/messaging-channels` with `transport: "email"`. */
export const CreateEmailChannelSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    transport: z.literal("email"),
    provider: z.literal("smtp").default("smtp").meta({ description: "Always `smtp` (the default)." }),
    address: EmailAddressSchema,
    smtp: SmtpInputSchema,
    ownerId: z
      .uuid()
      .transform((v) => v.toLowerCase())
      .optional()
      .meta({ description: "Member who owns the channel (default: the key's member); the owner always has access." }),
    privacyMode: z.enum(["off", "whitelist"]).default("off"),
    mock: z.boolean().default(false),
  })
  .meta({ id: "CreateEmailChannel" });

/** The e-mail part of a channel's settings: never the password. */
export const EmailSettingsSchema = z
  .object({
    address: z.string(),
    smtp: z.object({ host: z.string(), port: z.number().int(), tls: z.enum(SMTP_TLS), user: z.string().nullable() }),
  })
  .meta({ id: "EmailChannelSettings", description: "Only on `email` channels. The SMTP password is write-only." });

export type EmailChannelInput = z.output<typeof CreateEmailChannelSchema>;

/** The SMTP settings saved, checked as the outbound guard checks a URL (a 400 naming `smtp.host`). */
export async function smtpSettingsOf(input: z.output<typeof SmtpInputSchema>): Promise<{ smtp: SmtpSettings; password: string }> {
  const tls = input.tls ?? (input.port === 465 ? "implicit" : "starttls");
  if (tls === "none" && !privateTargetsAllowed()) {
    throw invalid("body field `smtp.tls`: 'none' sends the password and mail in clear; use `starttls` or `implicit`.");
  }
  await assertPublicUrl("smtp.host", `smtp://${input.host}:${input.port}`, "an SMTP server on an internal network");
  return { smtp: { host: input.host, port: input.port, tls, user: input.user ?? null }, password: input.password ?? "" };
}

/** The row's base URL (`smtp://host:port`: the settings show its host as `gatewayHost`) and sealed credentials' content. */
export function emailRowParts(address: string, s: { smtp: SmtpSettings; password: string }): { baseUrl: string; credentials: Credentials } {
  return { baseUrl: `smtp://${s.smtp.host}:${s.smtp.port}`, credentials: { apiKey: s.password, sessionName: address, smtp: s.smtp } };
}

export function presentEmailSettings(_row: MessagingChannelRow, creds: Credentials): z.infer<typeof EmailSettingsSchema> | undefined {
  if (!creds.smtp) return undefined;
  return { address: creds.sessionName, smtp: { host: creds.smtp.host, port: creds.smtp.port, tls: creds.smtp.tls, user: creds.smtp.user } };
}

/** A create body with `transport: "email"` as the channel row's parts (the caller inserts it as any channel). */
export async function emailChannelInput(body: unknown) {
  const data = CreateEmailChannelSchema.parse(body);
  const { baseUrl, credentials } = emailRowParts(data.address, await smtpSettingsOf(data.smtp));
  return { ...data, baseUrl, credentials };
}

/**
 * `address`/`smtp` of a PATCH on an e-mail channel: `smtp` is sent whole (its password may be left
 * out to keep the saved one).
 */
export async function updatedEmailCredentials(current: Credentials, patch: { address?: string; smtp?: z.output<typeof SmtpInputSchema> }) {
  const address = patch.address ?? current.sessionName;
  const s = patch.smtp
    ? await smtpSettingsOf(patch.smtp).then((r) => ({ ...r, password: patch.smtp?.password ?? current.apiKey }))
    : { smtp: current.smtp as SmtpSettings, password: current.apiKey };
  return emailRowParts(address, s);
}
