import { mkdtemp, readFile, rm, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCAL_SIGMA_CREDENTIALS_FILE, loadOrCreateLocalSigmaCredentials } from "../src/index.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sigma-cred-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("loadOrCreateLocalSigmaCredentials", () => {
  it("creates the file once with mode 0600 and random secrets of at least 32 bytes", async () => {
    const dataDir = path.join(dir, "data");
    const a = await loadOrCreateLocalSigmaCredentials(dataDir);
    const file = path.join(dataDir, LOCAL_SIGMA_CREDENTIALS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(a.embedSecret, "hex").length).toBeGreaterThanOrEqual(32);
    expect(Buffer.from(a.apiClientSecret, "hex").length).toBeGreaterThanOrEqual(32);
    expect(a.embedSecret).not.toBe(a.apiClientSecret);
    expect(a.embedClientId).not.toBe(a.apiClientId);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(a);
    const b = await loadOrCreateLocalSigmaCredentials(dataDir);
    expect(b).toEqual(a);
  });

  it("gives every concurrent caller the same credentials", async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => loadOrCreateLocalSigmaCredentials(dir)),
    );
    for (const r of results) expect(r).toEqual(results[0]);
  });

  it("tightens a readable file to 0600 and rejects a malformed one", async () => {
    const creds = await loadOrCreateLocalSigmaCredentials(dir);
    const file = path.join(dir, LOCAL_SIGMA_CREDENTIALS_FILE);
    await chmod(file, 0o644);
    expect(await loadOrCreateLocalSigmaCredentials(dir)).toEqual(creds);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFile(file, JSON.stringify({ embedClientId: "short" }));
    await expect(loadOrCreateLocalSigmaCredentials(dir)).rejects.toThrow(
      /not a valid local Sigma credentials/,
    );
  });
});
