import { and, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { contacts, dealContacts, type ContactRow } from "../../db/schema";
import type { ContactInput } from "../deals/schemas";
import type { ContactWithRole } from "../deals/serialize";

/**
 * Contacts are tenant records: one with the same E.164 phone (first), e-mail or CPF is reused, and
 * gets the e-mail, phone or CPF it lacked. A contact listed twice in one deal keeps its first role.
 */
export async function resolveContacts(tx: DbOrTx, tenantId: string, inputs: ContactInput[]): Promise<ContactWithRole[]> {
  const out: ContactWithRole[] = [];
  for (const input of inputs) {
    const existing = await findContact(tx, tenantId, input);
    let row: ContactRow;
    if (existing) {
      row = await fillGaps(tx, tenantId, existing, input);
    } else {
      [row] = await tx
        .insert(contacts)
        .values({ tenantId, name: input.name, email: input.email ?? null, phone: input.phone ?? null, cpf: input.cpf ?? null })
        .returning();
    }
    if (!out.some((c) => c.id === row.id)) out.push({ ...row, role: input.role });
  }
  return out;
}

async function findContact(tx: DbOrTx, tenantId: string, c: ContactInput): Promise<ContactRow | undefined> {
  if (c.phone) {
    const [byPhone] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), eq(contacts.phone, c.phone)))
      .limit(1);
    if (byPhone) return byPhone;
  }
  if (c.email) {
    const [byEmail] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), sql`lower(${contacts.email}) = ${c.email}`))
      .limit(1);
    if (byEmail) return byEmail;
  }
  if (c.cpf) {
    // A CPF names one person: the last way to recognise a returning contact.
    const [byCpf] = await tx
      .select()
      .from(contacts)
      .where(and(eq(contacts.tenantId, tenantId), eq(contacts.cpf, c.cpf)))
      .limit(1);
    return byCpf;
  }
  return undefined;
}

async function fillGaps(tx: DbOrTx, tenantId: string, row: ContactRow, c: ContactInput): Promise<ContactRow> {
  const patch: Partial<ContactRow> = {};
  // Only take an e-mail or phone that no other contact of the tenant owns (both are unique).
  if (!row.email && c.email && !(await findContact(tx, tenantId, { ...c, phone: undefined, cpf: undefined }))) patch.email = c.email;
  if (!row.phone && c.phone) patch.phone = c.phone;
  if (!row.cpf && c.cpf) patch.cpf = c.cpf;
  if (!Object.keys(patch).length) return row;
  // Only where still empty: another write of the same transaction (a batch of leads writes people
  // side by side) may have filled the gap since it was read; the first value stays.
  const fill = Object.fromEntries(
    (["email", "phone", "cpf"] as const).filter((k) => patch[k] !== undefined).map((k) => [k, sql`coalesce(${contacts[k]}, ${patch[k]})`]),
  );
  const [updated] = await tx
    .update(contacts)
    .set({ ...fill, updatedAt: new Date() })
    .where(and(eq(contacts.id, row.id), eq(contacts.tenantId, tenantId)))
    .returning();
  return updated;
}

export async function linkContacts(tx: DbOrTx, tenantId: string, dealId: string, list: ContactWithRole[]) {
  await tx.delete(dealContacts).where(and(eq(dealContacts.tenantId, tenantId), eq(dealContacts.dealId, dealId)));
  await addContacts(tx, tenantId, dealId, list);
}

/** The contacts of a deal that has none yet (a new deal), in order. */
export async function addContacts(tx: DbOrTx, tenantId: string, dealId: string, list: ContactWithRole[]) {
  if (!list.length) return;
  await tx.insert(dealContacts).values(list.map((c, i) => ({ tenantId, dealId, contactId: c.id, role: c.role, position: i })));
}

/** Contacts of several deals at once (list pages), in each deal's order. */
export async function contactsOfDeals(tx: DbOrTx, tenantId: string, dealIds: string[]): Promise<Map<string, ContactWithRole[]>> {
  const map = new Map<string, ContactWithRole[]>(dealIds.map((id) => [id, []]));
  if (!dealIds.length) return map;
  const rows = await tx
    .select({ c: contacts, dealId: dealContacts.dealId, role: dealContacts.role })
    .from(dealContacts)
    .innerJoin(contacts, and(eq(contacts.id, dealContacts.contactId), eq(contacts.tenantId, tenantId)))
    .where(and(eq(dealContacts.tenantId, tenantId), inArray(dealContacts.dealId, dealIds)))
    .orderBy(dealContacts.dealId, dealContacts.position);
  for (const r of rows) map.get(r.dealId)!.push({ ...r.c, role: r.role });
  return map;
}
