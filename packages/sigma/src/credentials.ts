import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";

/** File under DATA_DIR holding the credentials shared by the portal and the built-in analytics server. */
export const LOCAL_SIGMA_CREDENTIALS_FILE = "sigma-local.json";

export const ZLocalSigmaCredentialsSchema = z.object({
  embedClientId: z.string().min(16),
  embedSecret: z.string().min(43),
  apiClientId: z.string().min(16),
  apiClientSecret: z.string().min(43),
});
export type TLocalSigmaCredentials = z.infer<typeof ZLocalSigmaCredentialsSchema>;

function generate(): TLocalSigmaCredentials {
  return {
    embedClientId: randomBytes(16).toString("hex"),
    embedSecret: randomBytes(64).toString("hex"),
    apiClientId: randomBytes(16).toString("hex"),
    apiClientSecret: randomBytes(64).toString("hex"),
  };
}

async function readCredentials(file: string): Promise<TLocalSigmaCredentials> {
  const text = await readFile(file, "utf8");
  const parsed = ZLocalSigmaCredentialsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new Error(`${file} is not a valid local Sigma credentials file: ${parsed.error.message}`);
  }
  const { mode } = await stat(file);
  if ((mode & 0o077) !== 0) await chmod(file, 0o600);
  return parsed.data;
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/**
 * Reads `DATA_DIR/sigma-local.json`, creating it once (mode 0600) with random credentials.
 * The portal API and the built-in analytics server both call this when no SIGMA_* settings are given,
 * which is how they share the embed and API credentials. Creation is atomic (write a temporary file,
 * then hard-link it into place), so two processes starting together agree on one set.
 */
export async function loadOrCreateLocalSigmaCredentials(dataDir: string): Promise<TLocalSigmaCredentials> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, LOCAL_SIGMA_CREDENTIALS_FILE);
  try {
    return await readCredentials(file);
  } catch (error) {
    if (!isErrno(error, "ENOENT")) throw error;
  }
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(tmp, `${JSON.stringify(generate(), null, 2)}\n`, { mode: 0o600, flag: "wx" });
  try {
    await link(tmp, file);
  } catch (error) {
    if (!isErrno(error, "EEXIST")) throw error;
  } finally {
    await unlink(tmp);
  }
  return readCredentials(file);
}
