import { createHash } from "node:crypto";
import { DEFAULT_BRANDING, type TBranding } from "@portal/contracts";
import { eq } from "drizzle-orm";
import type { Actor } from "../audit/actor.ts";
import { auditActor } from "../audit/actor.ts";
import { recordAudit } from "../audit/audit.ts";
import type { Database, Executor } from "../db/client.ts";
import { firmBranding } from "../db/schema.ts";
import type { CheckedLogo, LogoType } from "./logo.ts";

/** The one row's id. */
const ROW = 1;

/** How long an instance reuses what it read: another instance's change shows within this time. */
const REREAD_MS = 5_000;

export interface StoredLogo {
  bytes: Buffer;
  type: LogoType;
  sha256: string;
}

export interface CurrentBranding {
  branding: TBranding;
  /** Strong validator of `branding` (GET /api/branding). */
  etag: string;
  logo: StoredLogo | null;
}

export interface BrandingStore {
  /** What the portal wears now (reused for a few seconds; a change made here is seen at once). */
  current(): Promise<CurrentBranding>;
  update(
    actor: Actor,
    input: Pick<TBranding, "firmName" | "primaryColour" | "supportEmail">,
  ): Promise<CurrentBranding>;
  replaceLogo(actor: Actor, logo: CheckedLogo): Promise<CurrentBranding>;
  removeLogo(actor: Actor): Promise<CurrentBranding>;
}

export function logoUrlOf(sha256: string): string {
  return `/api/branding/logo?v=${sha256.slice(0, 16)}`;
}

function describe(branding: TBranding, logo: StoredLogo | null): CurrentBranding {
  const etag = `"${createHash("sha256").update(JSON.stringify(branding)).digest("base64url").slice(0, 22)}"`;
  return { branding, etag, logo };
}

async function readRow(db: Executor) {
  const [row] = await db
    .select({
      firmName: firmBranding.firmName,
      primaryColour: firmBranding.primaryColour,
      supportEmail: firmBranding.supportEmail,
      logoType: firmBranding.logoType,
      logoSha256: firmBranding.logoSha256,
    })
    .from(firmBranding)
    .where(eq(firmBranding.id, ROW));
  return row;
}

/** The firm's branding (one row, decision 014), read through a short cache and written with its audit row. */
export function createBrandingStore(db: Database): BrandingStore {
  let cached: { value: CurrentBranding; at: number } | undefined;
  let reading: Promise<CurrentBranding> | undefined;

  async function load(): Promise<CurrentBranding> {
    const row = await readRow(db);
    if (!row) return describe(DEFAULT_BRANDING, null);
    let logo: StoredLogo | null = null;
    if (row.logoSha256 && row.logoType) {
      // The logo's bytes are read again only when it changed.
      const known = cached?.value.logo;
      if (known && known.sha256 === row.logoSha256) logo = known;
      else {
        const [stored] = await db
          .select({ base64: firmBranding.logoBase64 })
          .from(firmBranding)
          .where(eq(firmBranding.id, ROW));
        if (stored?.base64) {
          logo = {
            bytes: Buffer.from(stored.base64, "base64"),
            type: row.logoType as LogoType,
            sha256: row.logoSha256,
          };
        }
      }
    }
    return describe(
      {
        firmName: row.firmName,
        primaryColour: row.primaryColour,
        supportEmail: row.supportEmail,
        logoUrl: logo ? logoUrlOf(logo.sha256) : null,
      },
      logo,
    );
  }

  async function current(): Promise<CurrentBranding> {
    if (cached && Date.now() - cached.at < REREAD_MS) return cached.value;
    reading ??= load()
      .then((value) => {
        cached = { value, at: Date.now() };
        return value;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  }

  /** One transaction: the row (created from the defaults when missing) and its audit row; then a fresh read. */
  async function write(
    actor: Actor,
    change: Partial<typeof firmBranding.$inferInsert>,
    audit: (before: TBranding) => Parameters<typeof recordAudit>[1],
  ): Promise<CurrentBranding> {
    const before = (await current()).branding;
    await db.transaction(async (tx) => {
      await tx
        .insert(firmBranding)
        .values({
          id: ROW,
          firmName: DEFAULT_BRANDING.firmName,
          primaryColour: DEFAULT_BRANDING.primaryColour,
          supportEmail: DEFAULT_BRANDING.supportEmail,
          ...change,
          updatedBy: actor.userId,
        })
        .onConflictDoUpdate({
          target: firmBranding.id,
          set: { ...change, updatedBy: actor.userId, updatedAt: new Date() },
        });
      await recordAudit(tx, audit(before));
    });
    cached = undefined;
    return current();
  }

  return {
    current,
    update: (actor, input) =>
      write(actor, input, (before) => ({
        action: "branding.updated",
        outcome: "success",
        ...auditActor(actor),
        targetType: "branding",
        targetId: "firm",
        before: {
          firmName: before.firmName,
          primaryColour: before.primaryColour,
          supportEmail: before.supportEmail,
        },
        after: input,
      })),
    replaceLogo: (actor, logo) =>
      write(
        actor,
        { logoBase64: logo.bytes.toString("base64"), logoType: logo.type, logoSha256: logo.sha256 },
        (before) => ({
          action: "branding.logo_replaced",
          outcome: "success",
          ...auditActor(actor),
          targetType: "branding",
          targetId: "firm",
          before: { logoUrl: before.logoUrl },
          after: { logoUrl: logoUrlOf(logo.sha256) },
          details: { type: logo.type, bytes: logo.bytes.length, sha256: logo.sha256 },
        }),
      ),
    removeLogo: (actor) =>
      write(actor, { logoBase64: null, logoType: null, logoSha256: null }, (before) => ({
        action: "branding.logo_removed",
        outcome: "success",
        ...auditActor(actor),
        targetType: "branding",
        targetId: "firm",
        before: { logoUrl: before.logoUrl },
        after: { logoUrl: null },
      })),
  };
}
