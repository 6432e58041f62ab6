import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../db/client";
import { tenants } from "../../../db/schema";
import { afterCommit, inTenantTransaction, inTransaction, isOpenTransaction, settleAfterCommit } from "../../../db/transaction";
import { makeTenant } from "../../helpers/factories";

describe("after-commit hooks owned by the transaction", () => {
  it("run once, after the commit, with what the transaction accumulated", async () => {
    const t = await makeTenant();
    const db = await getDb();
    const seen: string[][] = [];
    let nameSeenByHook: string | undefined;
    await inTransaction(db, async (tx) => {
      await tx.update(tenants).set({ name: "Renamed in the transaction" }).where(eq(tenants.id, t.tenantId));
      afterCommit(
        tx,
        "probe",
        () => [] as string[],
        async (acc) => {
          // Read through the root handle (another connection on PostgreSQL): only committed data shows.
          const [row] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, t.tenantId));
          nameSeenByHook = row.name;
          seen.push(acc);
        },
      ).push("a");
      afterCommit(
        tx,
        "probe",
        () => ["never"],
        () => {
          throw new Error("a second registration of a key must not replace the first");
        },
      ).push("b");
      await settleAfterCommit();
      expect(seen).toEqual([]);
    });
    await settleAfterCommit();
    expect(seen).toEqual([["a", "b"]]);
    expect(nameSeenByHook).toBe("Renamed in the transaction");
  });

  it("never run when the transaction rolls back", async () => {
    const db = await getDb();
    let ran = 0;
    await expect(
      inTransaction(db, async (tx) => {
        afterCommit(
          tx,
          "rolled-back",
          () => null,
          () => {
            ran++;
          },
        );
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await settleAfterCommit();
    expect(ran).toBe(0);
  });

  it("a verb called inside another's transaction joins it: its hooks wait for the outer commit", async () => {
    const t = await makeTenant();
    const db = await getDb();
    const order: string[] = [];
    await inTransaction(db, async (outer) => {
      await inTenantTransaction(outer, t.tenantId, async (inner) => {
        expect(inner).toBe(outer);
        afterCommit(
          inner,
          "inner",
          () => null,
          () => void order.push("inner hook"),
        );
      });
      await settleAfterCommit();
      order.push("outer body done");
      expect(isOpenTransaction(outer)).toBe(true);
    });
    await settleAfterCommit();
    expect(order).toEqual(["outer body done", "inner hook"]);
  });

  it("refuses after-commit work outside a managed transaction instead of losing it", async () => {
    const db = await getDb();
    expect(() =>
      afterCommit(
        db,
        "x",
        () => null,
        () => {},
      ),
    ).toThrow(/needs a transaction opened with inTransaction/);
    await db.transaction(async (raw) => {
      expect(() =>
        afterCommit(
          raw,
          "x",
          () => null,
          () => {},
        ),
      ).toThrow(/needs a transaction opened with inTransaction/);
    });
  });
});
