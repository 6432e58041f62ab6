import { z } from "zod";
import { EmailSchema } from "../schemas/email";
import type { MemberRow } from "../../db/schema";
import { PhoneSchema } from "../schemas/phone";
import { itemsSchema } from "../schemas/paging";
import { UrlOrPathSchema } from "../schemas/url";

export const RoleSchema = z.enum(["owner", "admin", "manager", "broker"]);

const MemberFields = {
  name: z.string().trim().min(1).max(120),
  email: EmailSchema,
  phone: PhoneSchema.nullable(),
  creci: z.string().trim().min(1).max(30).nullable().meta({ description: "Broker licence (CRECI), e.g. '123456-F/SP'." }),
  image: UrlOrPathSchema.nullable().meta({ description: "Photo URL (http/https) or a path on this service." }),
  imageUrl: UrlOrPathSchema.nullable().meta({ description: "Same as `image` (the name the public broker card uses); wins when both are sent." }),
  role: RoleSchema,
};

export const CreateMemberSchema = z
  .strictObject({
    ...MemberFields,
    phone: MemberFields.phone.optional(),
    creci: MemberFields.creci.optional(),
    image: MemberFields.image.optional(),
    imageUrl: MemberFields.imageUrl.optional(),
    role: RoleSchema.default("broker"),
  })
  .meta({ id: "CreateMember" });

export const UpdateMemberSchema = z
  .strictObject({
    ...MemberFields,
    active: z.boolean(),
    transferDealsTo: z.uuid().meta({
      description: "With `active: false`: the active member who takes over the member's open deals (default: the key's member).",
    }),
  })
  .partial()
  .meta({ id: "UpdateMember" });

export const MemberSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    creci: z.string().nullable(),
    image: z.string().nullable(),
    imageUrl: z.string().nullable().meta({ description: "Same as `image`." }),
    role: RoleSchema,
    active: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "Member" });

export type Member = z.infer<typeof MemberSchema>;

/** `listMembers`. */
export const MemberListSchema = itemsSchema(MemberSchema, "MemberList");

export function serializeMember(m: MemberRow): Member {
  return {
    id: m.id,
    name: m.name,
    email: m.email,
    phone: m.phone,
    creci: m.creci,
    image: m.image,
    imageUrl: m.image,
    role: m.role,
    active: m.active,
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** `imageUrl` is stored as `image`: one column, two names on the way in. */
export function withImageColumn<T extends { image?: string | null; imageUrl?: string | null }>(data: T): Omit<T, "imageUrl"> {
  const { imageUrl, ...rest } = data;
  return imageUrl !== undefined ? { ...rest, image: imageUrl } : rest;
}
