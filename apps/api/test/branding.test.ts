import { contrastRatio, DEFAULT_BRANDING, formatContrast } from "@portal/contracts";
import { and, eq, inArray, sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { auditLog } from "../src/db/schema.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { startSmtpServer } from "./support/smtp.ts";

let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: Awaited<ReturnType<typeof createTestApp>>;
const as: Record<string, Record<string, string>> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = await startSmtpServer();
  t = await createTestApp(database, { SMTP_URL: smtp.url, AUTH_IP_LIMIT_PER_MINUTE: "1000" });
  as.anonymous = { origin: ORIGIN };
  as.client = await headersFor(t, "client");
  as.employee = await headersFor(t, "employee");
  as.admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await t.app.close();
  await smtp.close();
  await database.close();
});

// A 1×1 PNG and a 1×1 GIF.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 40 40" width="40" height="40">
  <sodipodi:namedview id="base" pagecolor="#ffffff"/>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#1f4e8c"/></linearGradient></defs>
  <rect width="40" height="40" rx="8" fill="url(#g)"/><use href="#g"/>
</svg>`;

const settings = {
  firmName: "Northwind Advisors",
  primaryColour: "#1F4E8C",
  supportEmail: "help@northwind.example",
};

const putSettings = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({
    method: "PUT",
    url: "/api/admin/settings",
    headers: { ...headers, "content-type": "application/json" },
    payload: payload as object,
  });
const putLogo = (headers: Record<string, string>, body: Buffer | string, type = "application/octet-stream") =>
  t.app.inject({
    method: "PUT",
    url: "/api/admin/settings/logo",
    headers: { ...headers, "content-type": type },
    payload: body,
  });
const publicBranding = () => t.app.inject({ method: "GET", url: "/api/branding" });

async function brandingAudits(): Promise<number> {
  const rows = await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(inArray(auditLog.action, ["branding.updated", "branding.logo_replaced", "branding.logo_removed"]));
  return rows[0]!.n;
}

describe("firm branding", () => {
  it("is the demo firm until an admin sets it, public and validated with an ETag", async () => {
    const res = await publicBranding();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(DEFAULT_BRANDING);
    expect(res.headers["cache-control"]).toBe("public, no-cache");
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: "GET",
      url: "/api/branding",
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect((await t.app.inject({ method: "GET", url: "/api/branding/logo" })).statusCode).toBe(404);
  });

  it("answers 401 and 403 before reading the body, and changes nothing", async () => {
    const huge = Buffer.alloc(5 * 1024 * 1024, 1);
    for (const [who, status] of [
      ["anonymous", 401],
      ["client", 403],
      ["employee", 403],
    ] as const) {
      expect((await putLogo(as[who]!, huge)).statusCode).toBe(status);
      expect((await putLogo(as[who]!, PNG, "image/png")).statusCode).toBe(status);
      expect((await putSettings(as[who]!, { firmName: "" })).statusCode).toBe(status);
      expect((await putSettings(as[who]!, settings)).statusCode).toBe(status);
      expect(
        (await t.app.inject({ method: "GET", url: "/api/admin/settings", headers: as[who] })).statusCode,
      ).toBe(status);
    }
    expect((await publicBranding()).json()).toEqual(DEFAULT_BRANDING);
    expect(await brandingAudits()).toBe(0);
  });

  it("saves name, colour and support email for an admin, audited with before and after", async () => {
    const res = await putSettings(as.admin!, settings);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...settings, primaryColour: "#1f4e8c", logoUrl: null });
    const read = await publicBranding();
    expect(read.json()).toEqual({ ...settings, primaryColour: "#1f4e8c", logoUrl: null });
    const admin = await t.app.inject({ method: "GET", url: "/api/admin/settings", headers: as.admin });
    expect(admin.json().firmName).toBe("Northwind Advisors");
    const [row] = await database.db.select().from(auditLog).where(eq(auditLog.action, "branding.updated"));
    expect(row!.outcome).toBe("success");
    expect(row!.before).toMatchObject({ firmName: DEFAULT_BRANDING.firmName });
    expect(row!.after).toMatchObject({ firmName: "Northwind Advisors", primaryColour: "#1f4e8c" });
  });

  it("refuses bad settings with a readable 400 and changes nothing", async () => {
    const before = (await publicBranding()).json();
    const audits = await brandingAudits();
    const pale = "#a9a9a9";
    const ratio = contrastRatio(pale, "#ffffff");
    expect(ratio).toBeGreaterThan(1.4);
    expect(ratio).toBeLessThan(2.6);
    const cases: [unknown, RegExp][] = [
      [{ ...settings, primaryColour: "#c8c8c8" }, /contrast of 1\.\d\d:1 against white; at least 4\.5:1/],
      // 1.5:1, as the issue names it: the measured ratio is in the answer.
      [
        { ...settings, primaryColour: "#D2D2D2" },
        /^Primary colour #d2d2d2 has a contrast of 1\.51:1 against white; at least 4\.5:1 is needed \(WCAG AA\)\./,
      ],
      [{ ...settings, primaryColour: pale }, new RegExp(formatContrast(ratio).replace(".", "\\."))],
      [{ ...settings, primaryColour: "navy" }, /hex colour like #1f4e8c/],
      [{ ...settings, supportEmail: "not-an-email" }, /valid support email/],
      [{ ...settings, firmName: "   " }, /All fields are required/],
      [{ ...settings, firmName: "Line\nbreak" }, /Firm name must be on one line/],
      [{ ...settings, extra: 1 }, /JSON object with firmName/],
    ];
    for (const [payload, message] of cases) {
      const res = await putSettings(as.admin!, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect((await publicBranding()).json()).toEqual(before);
    expect(await brandingAudits()).toBe(audits);
  });

  it("refuses a malicious SVG, a GIF named PNG and a 5 MB file, and changes nothing", async () => {
    const before = (await publicBranding()).json();
    const audits = await brandingAudits();
    const cases: [Buffer | string, string, number, RegExp][] = [
      [
        `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script><rect width="4" height="4"/></svg>`,
        "image/svg+xml",
        400,
        /contains script \(<script>\)/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="4" height="4"/></svg>`,
        "image/svg+xml",
        400,
        /contains script \(onload\)/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="https://tracker.example/p.png" width="4" height="4"/></svg>`,
        "image/svg+xml",
        400,
        /refers to other files \(xlink:href="https:\/\/tracker\.example\/p\.png"\)/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/a.css);</style></svg>`,
        "image/svg+xml",
        400,
        /refers to other files/,
      ],
      [
        `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>`,
        "image/svg+xml",
        400,
        /contains script/,
      ],
      [GIF, "image/png", 400, /is a GIF image; the logo must be a PNG or SVG file/],
      [Buffer.from("%PDF-1.7\n"), "image/png", 400, /not a PNG or SVG image/],
      [Buffer.alloc(0), "image/png", 400, /empty/],
      [Buffer.alloc(5 * 1024 * 1024, 1), "image/png", 413, /5\.0 MB; a logo may be at most 512 KB/],
    ];
    for (const [body, type, status, message] of cases) {
      const res = await putLogo(as.admin!, body, type);
      expect(res.statusCode, String(body).slice(0, 60)).toBe(status);
      expect(res.json().error).toMatch(message);
    }
    expect((await publicBranding()).json()).toEqual(before);
    expect(await brandingAudits()).toBe(audits);
  });

  it("refuses every SVG that carries script or loads another file, however it is written (fast-check)", async () => {
    const before = (await publicBranding()).json();
    const audits = await brandingAudits();
    const active = [
      "<script>alert(1)</script>",
      "<SCRIPT>alert(1)</SCRIPT>",
      '<script xlink:href="data:,alert(1)"/>',
      '<rect width="4" height="4" onload="alert(1)"/>',
      '<rect width="4" height="4" ONCLICK="alert(1)"/>',
      '<g onmouseover="alert(1)"><rect width="4" height="4"/></g>',
      '<animate onbegin="alert(1)" attributeName="x" dur="1s"/>',
      "<foreignObject><div>x</div></foreignObject>",
      '<foreignObject><iframe src="https://evil.example"></iframe></foreignObject>',
      '<handler type="text/ecmascript">alert(1)</handler>',
      '<a href="javascript:alert(1)"><rect width="4" height="4"/></a>',
      '<a xlink:href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"><rect width="4" height="4"/></a>',
      '<image href="https://tracker.example/p.png" width="4" height="4"/>',
      '<image xlink:href="//tracker.example/p.png" width="4" height="4"/>',
      '<use href="https://evil.example/sprite.svg#a"/>',
      '<feImage href="http://evil.example/a.png"/>',
      "<style>@import url(https://evil.example/a.css);</style>",
      "<style>rect { fill: url(https://evil.example/a.svg#p) }</style>",
      '<rect width="4" height="4" style="fill:url(http://evil.example/p)"/>',
      '<rect width="4" height="4" fill="url(https://evil.example/a.svg#g)"/>',
      '<a href="#x"><set attributeName="href" to="javascript:alert(1)"/><rect width="4" height="4"/></a>',
      '<a href="#x"><animate attributeName="href" values="javascript:alert(1)"/><rect width="4" height="4"/></a>',
    ];
    const benign = [
      '<rect width="4" height="4"/>',
      '<circle cx="2" cy="2" r="1" fill="#1f4e8c"/>',
      "<title>Logo</title>",
      "",
    ];
    const svgOf = (inside: string, declaration = false) =>
      `${declaration ? '<?xml version="1.0"?>\n' : ""}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 4 4">${inside}</svg>`;
    // Each one alone, then mixed with harmless content (fast-check, fixed seed).
    for (const attack of active) {
      const res = await putLogo(as.admin!, svgOf(attack), "image/svg+xml");
      expect(res.statusCode, attack).toBe(400);
      expect(res.json().code, attack).toBe("LOGO_UNSAFE");
    }
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...active),
        fc.constantFrom(...benign),
        fc.constantFrom(...benign),
        fc.boolean(),
        async (attack, first, last, declaration) => {
          const svg = svgOf(`${first}${attack}${last}`, declaration);
          const res = await putLogo(as.admin!, svg, "image/svg+xml");
          expect(res.statusCode, svg).toBe(400);
          expect(res.json().code, svg).toBe("LOGO_UNSAFE");
        },
      ),
      { seed: 20261125, numRuns: 120 },
    );
    expect((await publicBranding()).json()).toEqual(before);
    expect(await brandingAudits()).toBe(audits);
  });

  it("stores a clean SVG and serves it with an exact type, nosniff, a CSP and a versioned, immutable URL", async () => {
    const res = await putLogo(as.admin!, SVG, "text/plain");
    expect(res.statusCode).toBe(200);
    const logoUrl = res.json().logoUrl as string;
    expect(logoUrl).toMatch(/^\/api\/branding\/logo\?v=[0-9a-f]{16}$/);
    expect((await publicBranding()).json().logoUrl).toBe(logoUrl);

    const logo = await t.app.inject({ method: "GET", url: logoUrl });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/svg+xml");
    expect(logo.headers["x-content-type-options"]).toBe("nosniff");
    expect(logo.headers["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
    expect(logo.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(logo.body).toContain('<rect width="40" height="40" rx="8" fill="url(#g)"');
    expect(logo.body).toContain('<use href="#g"');
    // An editor's leftovers are dropped silently; only active content refuses the file.
    expect(logo.body).not.toContain("namedview");
    const unversioned = await t.app.inject({ method: "GET", url: "/api/branding/logo" });
    expect(unversioned.headers["cache-control"]).toBe("public, no-cache");
    const revalidated = await t.app.inject({
      method: "GET",
      url: logoUrl,
      headers: { "if-none-match": String(logo.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
    const [row] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "branding.logo_replaced"));
    expect(row!.details).toMatchObject({ type: "image/svg+xml" });
  });

  it("keeps a PNG byte for byte, decided by its content, and removes it again", async () => {
    const res = await putLogo(as.admin!, PNG, "image/gif");
    expect(res.statusCode).toBe(200);
    const logo = await t.app.inject({ method: "GET", url: res.json().logoUrl });
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.headers["content-security-policy"]).not.toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
    );
    expect(logo.rawPayload.equals(PNG)).toBe(true);

    const removed = await t.app.inject({
      method: "DELETE",
      url: "/api/admin/settings/logo",
      headers: as.admin,
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().logoUrl).toBeNull();
    expect((await t.app.inject({ method: "GET", url: "/api/branding/logo" })).statusCode).toBe(404);
    const actions = await database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "branding"), eq(auditLog.outcome, "success")));
    expect(actions.map((a) => a.action).sort()).toEqual([
      "branding.logo_removed",
      "branding.logo_replaced",
      "branding.logo_replaced",
      "branding.updated",
    ]);
  });

  it("names the firm and uses its colour in the next email", async () => {
    const { email } = await t.createUser("client");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/request-password-reset",
      headers: { origin: ORIGIN, "content-type": "application/json" },
      payload: { email, redirectTo: "/reset-password" },
    });
    expect(res.statusCode).toBe(200);
    const mail = await smtp.nextMailTo(email);
    expect(mail.subject).toBe("Reset your Northwind Advisors portal password");
    expect(mail.text).toContain("Questions? Write to help@northwind.example.");
    expect(mail.html).toContain("background:#1f4e8c;color:#ffffff");
    expect(mail.html).not.toContain("Meridian");
  });

  it("passes the colour to the built-in analytics server as the embed's accent", async () => {
    const workbook = (
      await t.app.inject({
        method: "POST",
        url: "/api/admin/addworkbook",
        headers: as.admin,
        payload: { workbook_name: "Branding-Abcdefghijklmnopqrstuv", team_name: "Branding" },
      })
    ).json().data;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/sigma/provision-and-embed",
      headers: as.admin,
      payload: { workbookId: workbook.workbook_name },
    });
    expect(res.statusCode).toBe(200);
    expect(new URL(res.json().embedUrl).searchParams.get(":accent_color")).toBe("#1f4e8c");
  });
});
