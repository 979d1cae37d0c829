import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.ts";
import { createEmbedder } from "../src/sigma/embedder.ts";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "portal-config-"));

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("has working embedded defaults: port 3000, PGlite, demo data, demo domain for sign-up", () => {
    const dir = tmp();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      publicUrl: "http://127.0.0.1:3000",
      databaseUrl: undefined,
      demoData: true,
      signUpDomains: ["meridian-advisory.example"],
      sessionMaxAgeSeconds: 12 * 3600,
    });
  });

  it("turns demo data and self sign-up off by default with a real database", () => {
    const config = loadConfig({ DATA_DIR: tmp(), DATABASE_URL: "postgres://127.0.0.1/portal" });
    expect(config.demoData).toBe(false);
    expect(config.signUpDomains).toEqual([]);
  });

  it("generates the auth secret once under DATA_DIR, private to the owner, and reuses it", () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    const second = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(first).toHaveLength(43);
    expect(second).toBe(first);
    expect(statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(dir, "secrets.json"), "utf8")).toContain(first);
  });

  it("never invents a secret in production: a missing one is a readable error", () => {
    expect(
      problems({ NODE_ENV: "production", DATA_DIR: tmp(), PUBLIC_URL: "https://portal.example" }),
    ).toEqual(["BETTER_AUTH_SECRET is required in production (at least 32 random characters)"]);
  });

  it("refuses a plain-http PUBLIC_URL in production, where passkeys and secure cookies need https", () => {
    const base = { NODE_ENV: "production", DATA_DIR: tmp(), BETTER_AUTH_SECRET: "s".repeat(40) };
    expect(problems({ ...base, PUBLIC_URL: "http://portal.example" })).toEqual([
      "PUBLIC_URL must be an https:// address in production (passkeys and secure cookies need it; only localhost may use http)",
    ]);
    expect(problems({ ...base, PUBLIC_URL: "https://portal.example" })).toEqual([]);
    // The loopback address is a secure context too (a production build tried on the machine itself).
    expect(problems({ ...base, PUBLIC_URL: "http://127.0.0.1:3000" })).toEqual([]);
  });

  it("collects every problem into one readable list", () => {
    const list = problems({
      PORT: "eighty",
      DATABASE_URL: "mysql://x",
      SMTP_URL: "http://mail",
      DEMO_DATA: "maybe",
      ADMIN_EMAIL: "not-an-email",
      SIGNUP_ALLOWED_DOMAINS: "ok.example,not a domain",
    });
    expect(list).toHaveLength(6);
    expect(list.join("\n")).toMatch(/PORT/);
    expect(list.join("\n")).toMatch(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(list.join("\n")).toMatch(/SIGNUP_ALLOWED_DOMAINS/);
  });

  it("requires the admin email and password together, and social credentials in pairs", () => {
    expect(problems({ DATA_DIR: tmp(), ADMIN_EMAIL: "boss@firm.example" })).toEqual([
      "ADMIN_PASSWORD is required when ADMIN_EMAIL is set",
    ]);
    expect(problems({ DATA_DIR: tmp(), GOOGLE_CLIENT_ID: "id-only" })).toEqual([
      "GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set together",
    ]);
    expect(problems({ DATA_DIR: tmp(), OIDC_CLIENT_ID: "a", OIDC_CLIENT_SECRET: "b" })).toEqual([
      "OIDC_ISSUER is required when OIDC_CLIENT_ID is set",
    ]);
  });
  it("reads Sigma's embed UI options and names each bad one", () => {
    const config = loadConfig({
      DATA_DIR: tmp(),
      SIGMA_EMBED_UI: "theme=Dark, menu_position=none,hide_folder_navigation=true,lng=fr",
    });
    expect(config.sigma.ui).toEqual({
      theme: "Dark",
      menu_position: "none",
      hide_folder_navigation: true,
      lng: "fr",
    });
    expect(loadConfig({ DATA_DIR: tmp() }).sigma.ui).toEqual({});
    const list = problems({
      DATA_DIR: tmp(),
      SIGMA_EMBED_UI: "menu_position=sideways,hide_menu=yes,colour=blue,theme",
    });
    expect(list).toEqual([
      "SIGMA_EMBED_UI: hide_menu must be true or false",
      'SIGMA_EMBED_UI: "theme" is not <option>=<value>',
      expect.stringMatching(/^SIGMA_EMBED_UI: menu_position: /),
      expect.stringMatching(/^SIGMA_EMBED_UI: colour: /),
    ]);
  });
  it("sends the configured UI options on every embed URL", async () => {
    const config = loadConfig({ DATA_DIR: tmp(), SIGMA_EMBED_UI: "theme=Dark,hide_bookmarks=true" });
    const { url } = await createEmbedder(config).mint(
      {
        email: "olivia.bennett@example.com",
        firstName: "Olivia",
        lastName: "Bennett",
        privilege: "View",
        teams: ["Portfolio Clients"],
        userAttributes: { client_id: "CL-1001" },
      },
      "Portfolio-Overview-AAAAAAAAAAAAAAAAAAAAAA",
    );
    const params = new URL(url).searchParams;
    expect(params.get(":theme")).toBe("Dark");
    expect(params.get(":hide_bookmarks")).toBe("true");
    expect(params.get(":embed")).toBe("true");
  });
});
