import { afterEach, describe, expect, it, vi } from "vitest";
import { config, resetConfigForTests } from "../../../lib/config";

afterEach(() => {
  vi.unstubAllEnvs();
  resetConfigForTests();
});

function problems(): string {
  resetConfigForTests();
  try {
    config();
    return "";
  } catch (err) {
    return (err as Error).message;
  }
}

describe("AI_* configuration", () => {
  it("takes a provider with its model and optional key", () => {
    vi.stubEnv("AI_BASE_URL", "http://ollama:11434/v1");
    vi.stubEnv("AI_MODEL", "llama3.1:8b");
    expect(problems()).toBe("");
    expect(config()).toMatchObject({ AI_BASE_URL: "http://ollama:11434/v1", AI_MODEL: "llama3.1:8b", AI_TIMEOUT_MS: 60_000 });
    expect(config().AI_API_KEY).toBeUndefined();
  });

  it("refuses half a setup and a non-http URL, naming the variable", () => {
    vi.stubEnv("AI_BASE_URL", "https://api.example.com/v1");
    expect(problems()).toMatch(/AI_MODEL: is required when AI_BASE_URL is set/);
    vi.stubEnv("AI_BASE_URL", "");
    vi.stubEnv("AI_MODEL", "gpt-4o-mini");
    vi.stubEnv("AI_API_KEY", "sk-x");
    const msg = problems();
    expect(msg).toMatch(/AI_MODEL: needs AI_BASE_URL/);
    expect(msg).toMatch(/AI_API_KEY: needs AI_BASE_URL/);
    vi.stubEnv("AI_BASE_URL", "ftp://models.example.com");
    expect(problems()).toMatch(/AI_BASE_URL: must be an http\(s\) URL/);
    vi.stubEnv("AI_BASE_URL", "https://models.example.com/v1");
    vi.stubEnv("AI_TIMEOUT_MS", "10");
    expect(problems()).toMatch(/AI_TIMEOUT_MS/);
  });
});
