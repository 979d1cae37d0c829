import { createHmac, hkdfSync } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import { auditChainKey } from "../audit/chain.ts";
import type { AppConfig } from "../config.ts";
import type { Executor } from "../db/client.ts";
import { auditChainHead, secretFingerprints, twoFactors } from "../db/schema.ts";

/**
 * The secrets a database depends on, checked against this instance's settings (issue 25): before it listens
 * (a mismatch stops start-up with one message naming the setting) and by every `/readyz` (the database
 * changed under a running instance: not ready, with the same words). Without this, an instance with another
 * secret said "ready" and then failed one request in N behind the load balancer.
 *
 * - AUDIT_KEY: the audit chain's key id (`audit_chain_head.key_id`, decision 007).
 * - BETTER_AUTH_SECRET: it signs the session cookies and encrypts the two-step secrets; checked by decrypting
 *   a stored two-step secret (at start) and by its fingerprint (`secret_fingerprints`).
 * - SIGMA_EMBED_SECRET: the embed URLs' signing secret, per client id (another instance with another secret
 *   for the same client id would mint URLs Sigma refuses).
 */
export interface SecretProblem {
  setting: string;
  message: string;
}

export interface SecretCheckOptions {
  config: AppConfig;
  /** Better Auth's secret configuration (`(await auth.$context).secretConfig`): decrypts two-step secrets. */
  secretConfig?: Parameters<typeof symmetricDecrypt>[0]["key"];
  /** At start: a secret this database has not met yet is recorded (first instance wins). */
  record: boolean;
}

/** The secrets to fingerprint: the setting's name as stored, and its value. */
function fingerprinted(config: AppConfig): Array<{ name: string; setting: string; secret: string }> {
  const list = [{ name: "BETTER_AUTH_SECRET", setting: "BETTER_AUTH_SECRET", secret: config.authSecret }];
  if (config.sigma.embed) {
    list.push({
      name: `SIGMA_EMBED_SECRET for ${config.sigma.embed.clientId}`,
      setting: "SIGMA_EMBED_SECRET",
      secret: config.sigma.embed.secret,
    });
  }
  return list;
}

/** Names a secret without revealing it: an HMAC of its name under a key derived from it. */
export function secretFingerprint(name: string, secret: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "meridian-portal secret fingerprint v1", 32));
  return createHmac("sha256", key).update(name).digest("hex").slice(0, 16);
}

const DIFFERENT_SECRET = (setting: string, what: string) =>
  `${setting}: this database was set up with another ${setting} (${what}). Set ${setting} to the value the ` +
  "other instances use (the same on every instance); to replace it on purpose, see README › Running in production.";

export async function checkDeploymentSecrets(
  db: Executor,
  options: SecretCheckOptions,
): Promise<SecretProblem[]> {
  const { config } = options;
  const problems: SecretProblem[] = [];

  const key = auditChainKey(config.auditKeySecret);
  const [head] = await db
    .select({ keyId: auditChainHead.keyId })
    .from(auditChainHead)
    .where(eq(auditChainHead.id, 1));
  if (head?.keyId && head.keyId !== key.id) {
    const derived =
      config.auditKeySecret === config.authSecret
        ? " (AUDIT_KEY is unset: derived from BETTER_AUTH_SECRET)"
        : "";
    problems.push({
      setting: "AUDIT_KEY",
      message:
        `AUDIT_KEY: the audit chain in this database was written with another key (key id ${head.keyId}; ` +
        `this instance's key has id ${key.id}${derived}). Set AUDIT_KEY to the key the chain was written with, ` +
        "the same on every instance.",
    });
  }

  if (options.secretConfig) {
    // The two-step secrets were encrypted with the auth secret: one that no longer opens is the wrong one.
    const [sample] = await db.select({ secret: twoFactors.secret }).from(twoFactors).limit(1);
    if (sample?.secret) {
      const opened = await symmetricDecrypt({ key: options.secretConfig, data: sample.secret }).then(
        () => true,
        () => false,
      );
      if (!opened) {
        problems.push({
          setting: "BETTER_AUTH_SECRET",
          message: DIFFERENT_SECRET(
            "BETTER_AUTH_SECRET",
            "the stored two-step secrets do not open with this one",
          ),
        });
      }
    }
  }

  const wanted = fingerprinted(config).map((s) => ({
    ...s,
    fingerprint: secretFingerprint(s.name, s.secret),
  }));
  if (options.record && !problems.some((p) => p.setting === "BETTER_AUTH_SECRET")) {
    await db
      .insert(secretFingerprints)
      .values(wanted.map(({ name, fingerprint }) => ({ name, fingerprint })))
      .onConflictDoNothing();
  }
  const stored = await db
    .select({ name: secretFingerprints.name, fingerprint: secretFingerprints.fingerprint })
    .from(secretFingerprints)
    .where(sql`${secretFingerprints.name} in ${wanted.map((w) => w.name)}`);
  for (const want of wanted) {
    const found = stored.find((row) => row.name === want.name);
    if (
      found &&
      found.fingerprint !== want.fingerprint &&
      !problems.some((p) => p.setting === want.setting)
    ) {
      problems.push({
        setting: want.setting,
        message: DIFFERENT_SECRET(want.setting, `recorded as ${want.name} by the first instance`),
      });
    }
  }
  return problems;
}
