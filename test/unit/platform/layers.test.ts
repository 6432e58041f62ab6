import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? m[2]);
}

/** Where an import lands, relative to the repository root (package names stay as they are). */
function target(file: string, spec: string): string {
  if (spec.startsWith("@/")) return spec.slice(2);
  if (!spec.startsWith(".")) return `pkg:${spec}`;
  return path.relative(root, path.resolve(root, path.dirname(file), spec));
}

describe("layers", () => {
  const lib = sourceFiles("lib");

  it("lib/ has domain code only: no Next.js, no routes, no Inngest folder", () => {
    const offending = lib.flatMap((f) =>
      importsOf(f)
        .map((s) => ({ f, s, t: target(f, s) }))
        .filter(({ t }) => /^pkg:next(\/|$)/.test(t) || /^app(\/|$)/.test(t) || /^inngest(\/|$)/.test(t) || /^pkg:inngest(\/|$)/.test(t))
        // The one exception: our HTTP server hands requests to Next.js through its custom-server API.
        .filter(({ f, t }) => !(f === path.join("lib", "server", "web-server.ts") && t === "pkg:next")),
    );
    expect(offending).toEqual([]);
    expect(lib.length).toBeGreaterThan(50);
  });

  it("only the transaction helper opens transactions, so after-commit work is never skipped", () => {
    const raw = [...lib, ...sourceFiles("db"), ...sourceFiles("inngest")].filter(
      (f) => f !== path.join("db", "transaction.ts") && /\.transaction\(/.test(fs.readFileSync(path.join(root, f), "utf8")),
    );
    expect(raw).toEqual([]);
  });
});
