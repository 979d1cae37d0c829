import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accentOf } from "../src/embed/page-route.ts";
import { CLIENT_A, PORTFOLIO, clientUser, mint, startTestServer, type TestServer } from "./helpers.ts";

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.stop();
});

async function openWith(params: string, ui: { theme?: string } = {}) {
  const { url } = await mint(t.server, PORTFOLIO!.workbookName, clientUser(CLIENT_A!), { ui });
  const res = await fetch(`${url}${params}`);
  return { status: res.status, html: await res.text() };
}

describe("the host's accent colour (:accent_color, the portal's firm branding)", () => {
  it("paints a light page in the portal's colour", async () => {
    const { status, html } = await openWith("&:accent_color=%231F4E8C");
    expect(status).toBe(200);
    expect(html).toContain('<html lang="en" data-theme="light" style="--accent:#1f4e8c">');
  });

  it("keeps the dark theme's own accent, which reads on dark backgrounds", async () => {
    const { html } = await openWith("&:accent_color=%231f4e8c", { theme: "Dark" });
    expect(html).toContain('<html lang="en" data-theme="dark">');
  });

  it("ignores anything but a hex colour (the parameter is unsigned)", async () => {
    const { status, html } = await openWith(`&:accent_color=${encodeURIComponent('red" onload="x')}`);
    expect(status).toBe(200);
    expect(html).toContain('<html lang="en" data-theme="light">');
    expect(html).not.toContain('onload="x"');
    for (const bad of ["red", "#fff", "#12345g", "#1f4e8c;color:red", undefined, ["#1f4e8c"]]) {
      expect(accentOf(bad)).toBeUndefined();
    }
    expect(accentOf("#ABCDEF")).toBe("#abcdef");
  });
});
