import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { rowsOf } from "../../db/rows";
import { conflict } from "../errors/domain-errors";
import type { TenantSettings } from "./settings-schema";

/**
 * Settings may not take away a value that stored rows still use (a stage, a sub-status, a
 * property type or feature, a custom field or one of its options): those rows would turn invalid
 * and every later edit of them would fail. The answer is a 409 that says what to move first.
 */
export async function assertSettingsStillFit(db: DbOrTx, tenantId: string, before: TenantSettings, after: TenantSettings) {
  const q = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));

  const pairs = await q<{ stage: string; status: string | null }>(sql`select distinct stage, status from listings where tenant_id = ${tenantId}`);
  for (const { stage, status } of pairs) {
    const def = after.listingWorkflow.stages.find((s) => s.id === stage);
    if (!def) throw conflict(`listingWorkflow.stages: listings are in stage '${stage}', which this change removes; move them first.`);
    if (status !== null && !def.statuses.includes(status)) {
      throw conflict(`listingWorkflow.stages: listings in stage '${stage}' have status '${status}', which this change removes; change them first.`);
    }
  }

  const dealStages = await q<{ stage: string }>(sql`select distinct stage from deals where tenant_id = ${tenantId}`);
  const missingDealStage = dealStages.find((d) => !after.dealWorkflow.stages.some((s) => s.id === d.stage));
  if (missingDealStage) {
    throw conflict(`dealWorkflow.stages: deals are in stage '${missingDealStage.stage}', which this change removes; move them first.`);
  }

  const types = await q<{ type: string }>(sql`select distinct type from properties where tenant_id = ${tenantId}`);
  const missingType = types.find((t) => !after.propertyTypes.some((p) => p.id === t.type));
  if (missingType) throw conflict(`propertyTypes: properties use type '${missingType.type}', which this change removes; change them first.`);

  const features = await q<{ f: string }>(sql`select distinct jsonb_array_elements_text(features) as f from properties where tenant_id = ${tenantId}`);
  const missingFeature = features.find((x) => !after.propertyFeatures.some((p) => p.id === x.f));
  if (missingFeature) {
    throw conflict(`propertyFeatures: properties use feature '${missingFeature.f}', which this change removes; remove it from them first.`);
  }

  for (const old of before.customFields) {
    const now = after.customFields.find((f) => f.key === old.key);
    const removedOptions = now?.type === "select" && old.type === "select" ? (old.options ?? []).filter((o) => !now.options?.includes(o)) : [];
    if (now && now.type === old.type && removedOptions.length === 0) continue;
    const [{ n }] = await q<{ n: number | string }>(
      removedOptions.length
        ? sql`select count(*) as n from deals where tenant_id = ${tenantId} and custom_data ->> ${old.key} in (${sql.join(
            removedOptions.map((o) => sql`${o}`),
            sql`, `,
          )})`
        : sql`select count(*) as n from deals where tenant_id = ${tenantId} and custom_data ? ${old.key}`,
    );
    if (Number(n) > 0) {
      const what = !now ? "removes it" : now.type !== old.type ? `changes its type to ${now.type}` : `removes option(s) ${removedOptions.join(", ")}`;
      throw conflict(`customFields: ${n} deal(s) use custom field '${old.key}' and this change ${what}; clear those values first.`);
    }
  }
}
