import { eq, or, type SQL } from "drizzle-orm";
import { deals } from "../../db/schema";
import type { MemberActor } from "../context/actor";

/** Restricted actors see and change only deals assigned to or created by their member. */
export function dealAccessWhere(actor: MemberActor): SQL | undefined {
  if (actor.access === "broad") return undefined;
  return or(eq(deals.assignedToId, actor.userId), eq(deals.createdById, actor.userId));
}
