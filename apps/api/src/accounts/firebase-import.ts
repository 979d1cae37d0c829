import { ZEmailSchema, textProblem, type TRole } from "@portal/contracts";
import { inArray, sql } from "drizzle-orm";
import { recordAudit } from "../audit/audit.ts";
import type { Database } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { createImportedAccount, type ImportedAccount } from "./accounts.ts";
import type { TFirebaseUser } from "./firebase-files.ts";
import { decodeFirebaseBase64, encodeFirebaseHash, type FirebaseHashConfig } from "./firebase-scrypt.ts";

/**
 * `npm run import:firebase`: people of a Firebase Authentication project become portal accounts that keep
 * their passwords (decision 012). A custom claim `admin: true` makes an admin; everyone else is an author,
 * the role that sees no client's data until the firm gives them more (DEVIATIONS D49).
 */
export const IMPORTED_USER_ROLE = "author" satisfies TRole;

const BAN_REASON = "Disabled in Firebase Authentication before the import.";
const NAME_MAX = 200;
const PICTURE_MAX = 2048;
/** People written per transaction: a run on a live PostgreSQL holds the audit chain's head only briefly. */
const BATCH = 200;

export interface PlannedImport {
  firebaseUid: string;
  account: ImportedAccount;
  /** What the report says beside the person: disabled, no password, picture left out, ... */
  notes: string[];
  emailVerifiedInFirebase: boolean;
}

export interface SkippedUser {
  /** The email, or `uid <localId>` when there is none. */
  who: string;
  reason: string;
}

export interface FirebaseImportReport {
  dryRun: boolean;
  imported: PlannedImport[];
  skipped: SkippedUser[];
}

type Decision = { skip: string } | { import: PlannedImport };

function adminClaim(customAttributes: string | undefined): boolean | { problem: string } {
  if (customAttributes === undefined || customAttributes.trim() === "") return false;
  let claims: unknown;
  try {
    claims = JSON.parse(customAttributes);
  } catch {
    return { problem: "customAttributes is not valid JSON, so whether they are an admin is unknown" };
  }
  return typeof claims === "object" && claims !== null && (claims as { admin?: unknown }).admin === true;
}

function picture(photoUrl: string | undefined): { image: string | null; note?: string } {
  if (!photoUrl) return { image: null };
  let url: URL | undefined;
  try {
    url = new URL(photoUrl);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    photoUrl.length > PICTURE_MAX ||
    textProblem(photoUrl, "photoUrl")
  ) {
    return { image: null, note: "picture left out (photoUrl is not a web address)" };
  }
  return { image: photoUrl };
}

function passwordOf(user: TFirebaseUser, config: FirebaseHashConfig): { hash: string | null; note?: string } {
  if (!user.passwordHash) return { hash: null, note: "no password: sets one with Reset Password" };
  const hash = decodeFirebaseBase64(user.passwordHash);
  const salt = user.salt ? decodeFirebaseBase64(user.salt) : undefined;
  if (!hash || hash.length === 0 || !salt) {
    return { hash: null, note: "password hash or salt unreadable: sets one with Reset Password" };
  }
  return { hash: encodeFirebaseHash({ hash, salt, config }) };
}

function decide(user: TFirebaseUser, config: FirebaseHashConfig): Decision {
  if (!user.email)
    return { skip: "no email address (signs in by phone, anonymously or by another provider only)" };
  const email = ZEmailSchema.safeParse(user.email.trim());
  if (!email.success) return { skip: `email: ${email.error.issues[0]?.message ?? "not a valid address"}` };
  const claim = adminClaim(user.customAttributes);
  if (typeof claim === "object") return { skip: claim.problem };

  const notes: string[] = [];
  const address = email.data.toLowerCase();
  let name = user.displayName?.trim() ?? "";
  const nameProblem = textProblem(name, "displayName");
  if (nameProblem) return { skip: nameProblem };
  if (name.length > NAME_MAX) return { skip: `displayName is longer than ${NAME_MAX} characters` };
  if (!name) {
    name = address.split("@")[0]!;
    notes.push(`no displayName: named "${name}"`);
  }
  const { image, note: pictureNote } = picture(user.photoUrl);
  if (pictureNote) notes.push(pictureNote);
  const { hash, note: passwordNote } = passwordOf(user, config);
  if (passwordNote) notes.push(passwordNote);
  const disabled = user.disabled === true;
  if (disabled) notes.push("disabled: stays disabled");
  return {
    import: {
      firebaseUid: user.localId,
      emailVerifiedInFirebase: user.emailVerified === true,
      notes,
      account: {
        email: address,
        name,
        image,
        role: claim ? "admin" : IMPORTED_USER_ROLE,
        banned: disabled,
        banReason: disabled ? BAN_REASON : null,
        passwordHash: hash,
      },
    },
  };
}

async function existingEmails(db: Database, emails: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  // A dry run does not migrate: a database the portal has never started on has nobody yet.
  const table = await db.execute<{ name: string | null }>(sql`select to_regclass('users')::text as name`);
  if (!(table as unknown as { rows: { name: string | null }[] }).rows[0]?.name) return found;
  for (let i = 0; i < emails.length; i += 1000) {
    const rows = await db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.email, emails.slice(i, i + 1000)));
    for (const row of rows) found.add(row.email.toLowerCase());
  }
  return found;
}

const ALREADY_EXISTS = "an account with this email already exists in the portal";

/**
 * Decides for every user of the export whether they are imported or skipped, and why; with `dryRun`
 * stops there, otherwise creates the accounts (through the accounts module) and audits each, and the run.
 */
export async function importFirebaseUsers(
  db: Database,
  exported: TFirebaseUser[],
  config: FirebaseHashConfig,
  options: { dryRun: boolean; actor: string },
): Promise<FirebaseImportReport> {
  const planned: PlannedImport[] = [];
  const skipped: SkippedUser[] = [];
  const seen = new Set<string>();
  for (const user of exported) {
    const decision = decide(user, config);
    const who = user.email?.trim() || `uid ${user.localId}`;
    if ("skip" in decision) {
      skipped.push({ who, reason: decision.skip });
    } else if (seen.has(decision.import.account.email)) {
      skipped.push({ who, reason: "the same email appears earlier in the file" });
    } else {
      seen.add(decision.import.account.email);
      planned.push(decision.import);
    }
  }
  const taken = await existingEmails(
    db,
    planned.map((p) => p.account.email),
  );
  const candidates = planned.filter((p) => {
    if (!taken.has(p.account.email)) return true;
    skipped.push({ who: p.account.email, reason: ALREADY_EXISTS });
    return false;
  });
  if (options.dryRun) return { dryRun: true, imported: candidates, skipped };

  const imported: PlannedImport[] = [];
  for (let i = 0; i < candidates.length; i += BATCH) {
    await db.transaction(async (tx) => {
      for (const person of candidates.slice(i, i + BATCH)) {
        // Created meanwhile (a sign-up, an admin): the accounts module leaves it alone.
        const userId = await createImportedAccount(tx, person.account);
        if (!userId) {
          skipped.push({ who: person.account.email, reason: ALREADY_EXISTS });
          continue;
        }
        imported.push(person);
        await recordAudit(tx, {
          action: "user.imported",
          outcome: "success",
          actorEmail: options.actor,
          targetType: "user",
          targetId: userId,
          after: {
            email: person.account.email,
            name: person.account.name,
            role: person.account.role,
            banned: person.account.banned,
            hasPassword: person.account.passwordHash !== null,
          },
          details: {
            source: "firebase",
            firebaseUid: person.firebaseUid,
            emailVerifiedInFirebase: person.emailVerifiedInFirebase,
          },
        });
      }
    });
  }
  await recordAudit(db, {
    action: "user.import_completed",
    outcome: "success",
    actorEmail: options.actor,
    details: {
      source: "firebase",
      inFile: exported.length,
      imported: imported.length,
      skipped: skipped.length,
    },
  });
  return { dryRun: false, imported, skipped };
}

/** The report printed by the command: who was imported (with notes), who was skipped and why. */
export function formatImportReport(report: FirebaseImportReport): string {
  const lines: string[] = [];
  const verb = report.dryRun ? "Would import" : "Imported";
  lines.push(`${verb} (${report.imported.length}):`);
  for (const p of report.imported) {
    const notes = [p.account.role, ...p.notes].join("; ");
    lines.push(`  ${p.account.email}  ${notes}`);
  }
  lines.push(`Skipped (${report.skipped.length}):`);
  for (const s of report.skipped) lines.push(`  ${s.who}  ${s.reason}`);
  lines.push(
    report.dryRun
      ? `Dry run: ${report.imported.length} would be imported, ${report.skipped.length} skipped; nothing was changed.`
      : `${report.imported.length} imported, ${report.skipped.length} skipped.`,
  );
  return lines.join("\n");
}
