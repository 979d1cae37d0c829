import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import type { DatabaseHandle } from "../src/db/client.ts";
import { createTestApp } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

const BIG_ASSET = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i })))};`;
const BIG_LOGIN = `<!doctype html><div id="root"></div><script src="/sign-in"></script>${"<!-- pad -->".repeat(200)}`;

let database: DatabaseHandle;
let app: Awaited<ReturnType<typeof buildApp>>["app"];

beforeAll(async () => {
  database = await createTestDatabase();
  const { config } = await createTestApp(database);
  const dist = mkdtempSync(path.join(os.tmpdir(), "portal-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(
    path.join(dist, "index.html"),
    '<!doctype html><div id="root"></div><script src="/spa"></script>',
  );
  writeFileSync(
    path.join(dist, "login.html"),
    '<!doctype html><div id="root"></div><script src="/sign-in"></script>',
  );
  writeFileSync(path.join(dist, "assets", "main-abc.js"), "console.log(1)");
  // A larger built file with the compressed copies the build writes beside it.
  for (const [file, body] of [
    [path.join(dist, "assets", "big-abc.js"), BIG_ASSET],
    [path.join(dist, "login.html"), BIG_LOGIN],
  ] as const) {
    writeFileSync(file, body);
    writeFileSync(`${file}.br`, brotliCompressSync(body));
    writeFileSync(`${file}.gz`, gzipSync(body));
  }
  writeFileSync(path.join(dist, "favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
  ({ app } = await buildApp({ config, database, webDist: dist, logger: false }));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

it("serves the SPA for client-side routes, real assets as files, and 404 for missing assets and API paths", async () => {
  for (const route of [
    "/",
    "/admin",
    "/admin/client-list",
    "/workbooks/Tax-Center-x",
    "/profile",
    "/terms",
    "/no/such/page",
    "/login/extra",
    "/login-page",
    "/admin/login",
  ]) {
    const res = await app.inject({ method: "GET", url: route });
    expect(res.statusCode, route).toBe(200);
    expect(res.body, route).toContain('<script src="/spa">');
    // The page names this release's assets, so it is revalidated every time.
    expect(res.headers["cache-control"], route).toBe("no-cache");
  }
  const asset = await app.inject({ method: "GET", url: "/assets/main-abc.js" });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers["content-type"]).toMatch(/javascript/);
  // Built assets are named after their content: cached for good.
  expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  const favicon = await app.inject({ method: "GET", url: "/favicon.svg" });
  expect(favicon.statusCode).toBe(200);
  expect(favicon.headers["cache-control"]).toBe("public, max-age=0");
  const missing = await app.inject({ method: "GET", url: "/assets/main-old.js" });
  expect(missing.statusCode).toBe(404);
  expect(missing.json()).toMatchObject({ error: "Not found." });
  const api = await app.inject({ method: "GET", url: "/api/admin/nothing" });
  expect(api.statusCode).toBe(401);
});

it("serves the sign-in page for the sign-in screens (decision 004), with or without a query or trailing slash", async () => {
  for (const route of [
    "/login",
    "/login/",
    "/login?error=access_denied",
    "/admin-login",
    "/reset-password?token=abc",
    "/reset-password?error=INVALID_TOKEN",
  ]) {
    for (const method of ["GET", "HEAD"] as const) {
      const res = await app.inject({ method, url: route });
      expect(res.statusCode, `${method} ${route}`).toBe(200);
      expect(res.headers["content-type"], route).toMatch(/text\/html/);
      expect(res.headers["cache-control"], route).toBe("no-cache");
      if (method === "GET") expect(res.body, route).toContain('<script src="/sign-in">');
    }
  }
  const post = await app.inject({ method: "POST", url: "/login" });
  expect(post.statusCode).toBe(404);
});

it("sends built files precompressed (brotli or gzip, as the browser accepts) and compresses larger API answers", async () => {
  const asset = await app.inject({
    method: "GET",
    url: "/assets/big-abc.js",
    headers: { "accept-encoding": "gzip, deflate, br" },
  });
  expect(asset.statusCode).toBe(200);
  expect(asset.headers["content-encoding"]).toBe("br");
  expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(brotliDecompressSync(asset.rawPayload).toString()).toBe(BIG_ASSET);
  const gz = await app.inject({
    method: "GET",
    url: "/assets/big-abc.js",
    headers: { "accept-encoding": "gzip" },
  });
  expect(gz.headers["content-encoding"]).toBe("gzip");
  expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_ASSET);
  const plain = await app.inject({
    method: "GET",
    url: "/assets/big-abc.js",
    headers: { "accept-encoding": "identity" },
  });
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.body).toBe(BIG_ASSET);

  // The sign-in page, sent by the not-found handler with sendFile, too.
  const page = await app.inject({ method: "GET", url: "/login", headers: { "accept-encoding": "gzip, br" } });
  expect(page.statusCode).toBe(200);
  expect(page.headers["content-encoding"]).toBe("br");
  expect(brotliDecompressSync(page.rawPayload).toString()).toBe(BIG_LOGIN);

  // API JSON over 1 KB is compressed as it is sent; a small answer is not worth it.
  const docs = await app.inject({
    method: "GET",
    url: "/api/docs/json",
    headers: { "accept-encoding": "br" },
  });
  expect(docs.statusCode).toBe(200);
  expect(docs.headers["content-encoding"]).toBe("br");
  expect(JSON.parse(brotliDecompressSync(docs.rawPayload).toString()).openapi).toMatch(/^3\./);
  const small = await app.inject({ method: "GET", url: "/healthz", headers: { "accept-encoding": "br" } });
  expect(small.headers["content-encoding"]).toBeUndefined();
  expect(small.json()).toEqual({ status: "ok" });
});
