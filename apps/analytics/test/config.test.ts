import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrCreateLocalSigmaCredentials } from "@portal/sigma";
import { ConfigError, loadAnalyticsConfig } from "../src/config.ts";

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "analytics-config-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("analytics configuration", () => {
  it("defaults to port 3100, org local, the portal origin and the credentials shared through DATA_DIR", async () => {
    const config = await loadAnalyticsConfig({ DATA_DIR: dataDir });
    const shared = await loadOrCreateLocalSigmaCredentials(dataDir);
    expect(config.port).toBe(3100);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicUrl).toBe("http://127.0.0.1:3100");
    expect(config.orgSlug).toBe("local");
    expect(config.allowedParentOrigins).toEqual(["http://127.0.0.1:3000", "http://localhost:3000"]);
    expect(config.embedClients).toEqual([{ clientId: shared.embedClientId, secret: shared.embedSecret }]);
    expect(config.apiClients).toEqual([{ clientId: shared.apiClientId, secret: shared.apiClientSecret }]);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.demo.size).toEqual({ clients: 40 });
  });

  it("takes the portal's PUBLIC_URL or an explicit list of parent origins, and explicit credentials", async () => {
    const config = await loadAnalyticsConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: "https://portal.example.com",
      ANALYTICS_PORT: "4100",
      ANALYTICS_DEMO_SIZE: "2mtx",
      ANALYTICS_EMBED_CLIENT_ID: "embed-client-x",
      ANALYTICS_EMBED_SECRET: "s".repeat(40),
    });
    expect(config.allowedParentOrigins).toEqual(["https://portal.example.com"]);
    expect(config.publicUrl).toBe("http://127.0.0.1:4100");
    expect(config.demo.size).toEqual({ transactions: 2_000_000 });
    expect(config.embedClients).toEqual([{ clientId: "embed-client-x", secret: "s".repeat(40) }]);
    const list = await loadAnalyticsConfig({
      DATA_DIR: dataDir,
      ANALYTICS_ALLOWED_PARENT_ORIGINS: "https://a.example.com, https://b.example.com:8443",
    });
    expect(list.allowedParentOrigins).toEqual(["https://a.example.com", "https://b.example.com:8443"]);
  });

  it("refuses bad values with a readable list", async () => {
    const error = await loadAnalyticsConfig({
      DATA_DIR: dataDir,
      ANALYTICS_PORT: "99999",
      ANALYTICS_DEMO_SIZE: "huge",
      ANALYTICS_EMBED_CLIENT_ID: "only-the-id",
      ANALYTICS_DATABASE_URL: "mysql://x",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain("ANALYTICS_PORT");
    expect(message).toContain("ANALYTICS_DEMO_SIZE");
    expect(message).toContain("ANALYTICS_EMBED_CLIENT_ID and ANALYTICS_EMBED_SECRET");
    expect(message).toContain("ANALYTICS_DATABASE_URL");
    await expect(
      loadAnalyticsConfig({
        DATA_DIR: dataDir,
        ANALYTICS_ALLOWED_PARENT_ORIGINS: "https://x.example.com/path",
      }),
    ).rejects.toThrow(/not an origin/);
  });
});
