import { afterEach, describe, expect, it, vi } from "vitest";
import { config, resetConfigForTests } from "../../../lib/config";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

describe("config", () => {
  it("treats an empty variable as unset and applies defaults", () => {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("PORT", "");
    resetConfigForTests();
    expect(config().DATABASE_URL).toBeUndefined();
    expect(config().PORT).toBe(3000);
  });

  it("names every invalid variable and says what is wrong", () => {
    vi.stubEnv("DATABASE_URL", "not a url");
    vi.stubEnv("PORT", "99999");
    vi.stubEnv("OPERATOR_TOKEN", "short");
    resetConfigForTests();
    let message = "";
    try {
      config();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/DATABASE_URL: Invalid URL/);
    expect(message).toMatch(/PORT: Too big/);
    expect(message).toMatch(/OPERATOR_TOKEN: must be at least 16 characters/);
  });
});
