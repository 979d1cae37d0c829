import { createHmac, hkdfSync } from "node:crypto";
import { configure } from "safe-stable-stringify";

/**
 * What the audit trail's proofs are computed from (decisions 007 and 023): the key, which never reaches the
 * database, and the three HMACs made with it — a row's own MAC, written with the row; the link a seal gives
 * each row, over its position, the previous link and the row's MAC; and the link of the first chain
 * (decision 007), which rows written before the seals carry themselves.
 */

/** The key the chain is written and verified with, and a public fingerprint stored beside the chain. */
export interface AuditChainKey {
  key: Buffer;
  /** Names the key without revealing it: lets `audit:verify` tell "wrong key" from "tampered". */
  id: string;
}

/**
 * AUDIT_KEY when set, else the portal's auth secret; either way through HKDF with its own label, so the
 * chain key is never the session-signing key itself.
 */
export function auditChainKey(secret: string): AuditChainKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "meridian-portal audit chain v1", 32));
  return { key, id: createHmac("sha256", key).update("audit-chain key id").digest("hex").slice(0, 16) };
}

let processKey: AuditChainKey | undefined;

/** Set once at start-up (buildApp): every audit row this process writes is chained with this key. */
export function useAuditChainKey(key: AuditChainKey): void {
  processKey = key;
}

export function currentAuditChainKey(): AuditChainKey {
  // Fail closed: a row without a valid MAC would make the next verify fail, so refuse to write one.
  if (!processKey)
    throw new Error("The audit chain key is not set (useAuditChainKey is called by buildApp).");
  return processKey;
}

/** The fields of a row that the hashes cover, as they are stored (JSON values already parsed back). */
export interface ChainedFields {
  occurredAt: Date;
  /**
   * occurred_at in microseconds since 1970 as the database holds it (read back by verify: a Date keeps
   * only milliseconds, and a change in the microseconds must break the hash too). Unset: from occurredAt.
   */
  occurredAtMicros?: string;
  actorUserId: string | null;
  actorEmail: string | null;
  action: string;
  outcome: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  before: unknown;
  after: unknown;
  details: unknown;
}

/** A row ready to insert: the fields its MAC covers, JSON values as they will be read back. */
export type PendingRow = ChainedFields;

// Sorted keys at every depth: jsonb gives objects back in its own key order, not the order written.
const canonical = configure({ deterministic: true, circularValue: TypeError, bigint: false });

const mac = (key: AuditChainKey, content: unknown[]) =>
  createHmac("sha256", key.key).update(canonical(content)).digest("hex");

function covered(row: ChainedFields): unknown[] {
  return [
    row.occurredAtMicros ?? String(row.occurredAt.getTime() * 1000),
    row.actorUserId,
    row.actorEmail,
    row.action,
    row.outcome,
    row.targetType,
    row.targetId,
    row.ip,
    row.userAgent,
    row.requestId,
    row.before ?? null,
    row.after ?? null,
    row.details ?? null,
  ];
}

/** A link of the first chain (decision 007): version 1, position, previous link, then the fields. */
export function chainHash(key: AuditChainKey, seq: number, previous: string, row: ChainedFields): string {
  return mac(key, [1, seq, previous, ...covered(row)]);
}

/**
 * A row's own MAC, written with it (decision 023). It covers the row's id, so a copy of a row under
 * another id does not verify; it does not cover the position, which the seal gives later.
 */
export function rowMac(key: AuditChainKey, id: number, row: ChainedFields): string {
  return mac(key, ["row", 2, id, ...covered(row)]);
}

/** The link a seal gives the row at `seq`: its position, the previous link, the row's id and MAC. */
export function sealLink(key: AuditChainKey, seq: number, previous: string, id: number, rowHash: string) {
  return mac(key, ["link", 2, seq, previous, id, rowHash]);
}
