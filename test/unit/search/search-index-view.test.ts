import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { searchIndexViewSql } from "../../../db/schema/search";

describe("search_index view", () => {
  it("is created by the newest migration that defines it, with the columns the field registry expects", () => {
    const dir = path.join(import.meta.dirname, "../../../db/migrations");
    const files = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort();
    const last = files.filter((f) => fs.readFileSync(path.join(dir, f), "utf8").includes("VIEW search_index")).pop();
    expect(last, "a migration creates the view").toBeTruthy();
    // When SEARCH_FIELDS changes, add a migration that drops and recreates the view with searchIndexViewSql().
    expect(fs.readFileSync(path.join(dir, last!), "utf8")).toContain(searchIndexViewSql());
  });
});
