import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { listings, type ListingRow, type PropertyRow } from "../../db/schema";
import type { TenantRow } from "../tenants/tenant-row";
import { eventUserId, type Actor } from "../context/actor";
import { invalid } from "../errors/domain-errors";
import { recordEvent } from "../outbox/record-event";
import { stableJson } from "../util/stable-json";
import { assertCodeFree, nextListingCode } from "./listing-code";
import { assertStage, assertTypology, keepTypeSpecificKeys, mergeTranslations, validateTypeSpecific } from "./listing-rules";
import type { CreateListingInput, UpdateListingInput } from "./schemas";
import { serializeListing, type Listing } from "./serialize";
import { queueTranslation } from "./translation-queue";

export type WriteCtx = { tx: Tx; actor: Actor; tenant: TenantRow };

/** Inserts a listing of `property` and records `listing.created`. `path` prefixes error fields. */
export async function insertListing(c: WriteCtx, property: PropertyRow, input: CreateListingInput, path: string): Promise<ListingRow> {
  const s = c.tenant.settings;
  const now = new Date();
  const stage = input.stage ?? s.listingWorkflow.defaultStageId;
  const status = input.status ?? null;
  assertStage(s, stage, status, path);
  const typologyId = input.typologyId ?? null;
  if (typologyId) await assertTypology(c.tx, c.tenant.id, typologyId, path);
  const isPrimaryMarket = primaryMarketFlag(input.isPrimaryMarket, typologyId, path);
  if (input.listingCode) await assertCodeFree(c.tx, c.tenant.id, input.listingCode, `${path}listingCode`);
  const listingCode = input.listingCode || (await nextListingCode(c.tx, c.tenant.id, property.type));

  const [row] = await c.tx
    .insert(listings)
    .values({
      tenantId: c.tenant.id,
      propertyId: property.id,
      title: input.title,
      description: input.description ?? null,
      type: input.type,
      price: input.price ?? null,
      currency: input.currency,
      priceVisibility: input.priceVisibility,
      visibility: input.visibility,
      stage,
      status,
      listingCode,
      isPrimaryMarket,
      typologyId,
      translations: mergeTranslations(s, {}, input.translations, path, now),
      typeSpecificData: validateTypeSpecific(input.type, input.typeSpecificData ?? {}, path),
      acceptanceCriteria: input.acceptanceCriteria ?? {},
      createdById: c.actor.kind === "member" ? c.actor.userId : null,
      publishedAt: stage === s.listingWorkflow.activeStageId ? now : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordEvent(c.tx, listingEvent(c, "listing.created", row, { listing: serializeListing(row) }));
  await queueTranslation(c.tx, s, row, null);
  return row;
}

/**
 * Applies a partial update and records `listing.updated` (and `listing.workflow.transitioned`
 * when stage or status moved). An update that changes nothing writes nothing.
 */
export async function patchListing(c: WriteCtx, property: PropertyRow, current: ListingRow, input: UpdateListingInput, path: string): Promise<ListingRow> {
  const s = c.tenant.settings;
  const now = new Date();
  const type = input.type ?? current.type;
  const stage = input.stage ?? current.stage;
  // A new stage starts without a sub-status unless one is sent with it.
  const status = input.status !== undefined ? input.status : stage !== current.stage ? null : current.status;
  if (input.stage !== undefined || input.status !== undefined) assertStage(s, stage, status, path);
  const typologyId = input.typologyId !== undefined ? input.typologyId : current.typologyId;
  if (input.typologyId) await assertTypology(c.tx, c.tenant.id, input.typologyId, path);
  const isPrimaryMarket =
    input.isPrimaryMarket !== undefined || input.typologyId
      ? primaryMarketFlag(input.isPrimaryMarket ?? (current.isPrimaryMarket as "true" | "false"), typologyId, path)
      : current.isPrimaryMarket;
  let listingCode = current.listingCode;
  if (input.listingCode !== undefined && input.listingCode !== current.listingCode) {
    listingCode = input.listingCode || (await nextListingCode(c.tx, c.tenant.id, property.type));
    if (input.listingCode) await assertCodeFree(c.tx, c.tenant.id, listingCode, `${path}listingCode`, current.id);
  }
  const typeSpecificData =
    input.typeSpecificData !== undefined ? validateTypeSpecific(type, input.typeSpecificData, path) : keepTypeSpecificKeys(type, current.typeSpecificData);

  const next = {
    title: input.title ?? current.title,
    description: input.description !== undefined ? input.description : current.description,
    type,
    price: input.price !== undefined ? input.price : current.price,
    currency: input.currency ?? current.currency,
    priceVisibility: input.priceVisibility ?? current.priceVisibility,
    visibility: input.visibility ?? current.visibility,
    stage,
    status,
    listingCode,
    isPrimaryMarket,
    typologyId,
    translations: mergeTranslations(s, current.translations, input.translations, path, now),
    typeSpecificData,
    acceptanceCriteria: input.acceptanceCriteria ?? current.acceptanceCriteria,
    publishedAt: current.publishedAt ?? (stage === s.listingWorkflow.activeStageId ? now : null),
  };
  const before = serializeListing(current);
  if (sameValues(before, next)) return current;

  const [row] = await c.tx
    .update(listings)
    .set({ ...next, updatedAt: now })
    .where(and(eq(listings.id, current.id), eq(listings.tenantId, c.tenant.id)))
    .returning();
  const after = serializeListing(row);
  await recordEvent(c.tx, listingEvent(c, "listing.updated", row, { listing: after }, before));
  await queueTranslation(c.tx, s, row, current);
  if (row.stage !== current.stage || row.status !== current.status) {
    await recordEvent(
      c.tx,
      listingEvent(
        c,
        "listing.workflow.transitioned",
        row,
        {
          listing: after,
          from: { stage: current.stage, status: current.status },
          to: { stage: row.stage, status: row.status },
        },
        before,
      ),
    );
  }
  return row;
}

export function listingEvent(
  c: WriteCtx,
  eventName: "listing.created" | "listing.updated" | "listing.workflow.transitioned" | "listing.deleted",
  row: ListingRow,
  data: Record<string, unknown>,
  old: Listing | null = null,
) {
  return { tenantId: c.tenant.id, eventName, entityType: "listing", entityId: row.id, userId: eventUserId(c.actor), data, old };
}

/** A listing with a typology is a development listing: the flag follows unless sent otherwise. */
function primaryMarketFlag(sent: "true" | "false" | undefined, typologyId: string | null, path: string): "true" | "false" {
  if (sent === "false" && typologyId) {
    throw invalid(`${path}isPrimaryMarket: a listing with a typologyId is a development listing; send 'true' or remove typologyId.`);
  }
  return sent ?? (typologyId ? "true" : "false");
}

function sameValues(before: Listing, next: Record<string, unknown>): boolean {
  return Object.entries(next).every(([k, v]) => stableJson((before as Record<string, unknown>)[k]) === stableJson(v));
}
