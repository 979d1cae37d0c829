import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { ZEmbedClaimsSchema, mintEmbedUrl, parseWorkbookName } from "../src/index.ts";

const secret = "a".repeat(64);
const base = {
  embedBaseUrl: "http://127.0.0.1:3100/local",
  workbookName: "Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ",
  clientId: "embed-client-1",
  secret,
  user: {
    email: "olivia.bennett@example.com",
    firstName: "Olivia",
    lastName: "Bennett",
    accountType: "View",
    teams: ["Portfolio Clients"],
    userAttributes: { client_id: "CL-1001" },
  },
};

function tokenOf(url: string): string {
  const m = /[?&]:jwt=([^&]+)/.exec(url);
  if (!m?.[1]) throw new Error("no :jwt in url");
  return decodeURIComponent(m[1]);
}

describe("mintEmbedUrl", () => {
  it("builds Sigma's URL shape with an HS256 token whose kid is the embed client id", async () => {
    const minted = await mintEmbedUrl({ ...base, ui: { theme: "Dark", responsive_height: true } });
    expect(minted.url).toMatch(
      /^http:\/\/127\.0\.0\.1:3100\/local\/workbook\/Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ\?:jwt=[^&]+&:embed=true&:theme=Dark&:responsive_height=true$/,
    );
    const token = tokenOf(minted.url);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", kid: "embed-client-1", typ: "JWT" });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ["HS256"] });
    const claims = ZEmbedClaimsSchema.parse(payload);
    expect(claims).toMatchObject({
      sub: "olivia.bennett@example.com",
      account_type: "View",
      teams: ["Portfolio Clients"],
      user_attributes: { client_id: "CL-1001" },
      first_name: "Olivia",
      last_name: "Bennett",
      jti: minted.jti,
    });
    // The embed session Sigma keeps open: an hour by default, long enough to read in.
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.aud).toBeUndefined();
  });

  it("uses a fresh jti each time, the configured lifetime, page path, control values and ver 1.1 audience", async () => {
    const now = () => new Date("2025-03-01T12:00:00Z");
    const a = await mintEmbedUrl({
      ...base,
      now,
      lifetimeSeconds: 120,
      pageId: "tax-summary",
      controls: { "Date Range": "min:2025-01-01,max:2025-02-28" },
      ver: "1.1",
    });
    const b = await mintEmbedUrl({ ...base, now });
    expect(a.jti).not.toBe(b.jti);
    expect(a.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.url).toContain("/workbook/Portfolio-Overview-wBUBiChqcA6De2yMJGx4YJ/page/tax-summary?:jwt=");
    expect(a.url).toContain("&Date%20Range=min%3A2025-01-01%2Cmax%3A2025-02-28");
    expect(a.claims.iat).toBe(Date.parse("2025-03-01T12:00:00Z") / 1000);
    expect(a.claims.exp - a.claims.iat).toBe(120);
    expect(a.expiresAt.toISOString()).toBe("2025-03-01T12:02:00.000Z");
    expect(a.claims.ver).toBe("1.1");
    expect(a.claims.aud).toBe("sigmacomputing");
  });

  it("sends only sub, jti, iat and exp for someone managed in Sigma (an internal user)", async () => {
    const minted = await mintEmbedUrl({ ...base, user: { kind: "internal", email: base.user.email } });
    const { payload } = await jwtVerify(tokenOf(minted.url), new TextEncoder().encode(secret), {
      algorithms: ["HS256"],
    });
    expect(Object.keys(payload).sort()).toEqual(["exp", "iat", "jti", "sub"]);
  });

  it("never lets the embed session outlive notAfter (the portal session's end)", async () => {
    const now = () => new Date("2025-03-01T12:00:00Z");
    const minted = await mintEmbedUrl({ ...base, now, notAfter: new Date("2025-03-01T12:10:00.900Z") });
    expect(minted.claims.exp - minted.claims.iat).toBe(600);
    const later = await mintEmbedUrl({ ...base, now, notAfter: new Date("2025-03-02T00:00:00Z") });
    expect(later.claims.exp - later.claims.iat).toBe(3600);
  });

  it("refuses what Sigma would reject", async () => {
    await expect(
      mintEmbedUrl({ ...base, user: { ...base.user, email: "first_last@example.com" } }),
    ).rejects.toThrow();
    await expect(mintEmbedUrl({ ...base, workbookName: "Portfolio Overview" })).rejects.toThrow();
    await expect(mintEmbedUrl({ ...base, lifetimeSeconds: 31 * 24 * 3600 })).rejects.toThrow();
    await expect(mintEmbedUrl({ ...base, controls: { ":jwt": "x" } })).rejects.toThrow();
  });

  it("is rejected by a verifier holding another secret", async () => {
    const minted = await mintEmbedUrl(base);
    await expect(
      jwtVerify(tokenOf(minted.url), new TextEncoder().encode("b".repeat(64)), { algorithms: ["HS256"] }),
    ).rejects.toThrow(/signature/);
  });
});

describe("parseWorkbookName", () => {
  it("splits the sidebar label and the url id at the last hyphen", () => {
    expect(parseWorkbookName("Income-and-Fees-hHwcpUAGGDWoQ6BGciXRUW")).toEqual({
      slug: "Income-and-Fees",
      label: "Income and Fees",
      urlId: "hHwcpUAGGDWoQ6BGciXRUW",
    });
    expect(parseWorkbookName("NoId")).toBeNull();
  });
});
