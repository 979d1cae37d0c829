import {
  ALL_FIELDS_REQUIRED,
  IMPORT_FIELD_LABELS,
  PRIVILEGES,
  type TImportField,
  type TPersonKind,
  type TImportMapping,
} from "@portal/contracts";
import { sql } from "drizzle-orm";
import type { z } from "zod";
import { passwordProblem } from "../accounts/password.ts";
import { rows as rowsOf } from "../db/rows.ts";
import type { Executor } from "../db/client.ts";
import { PERSON_KIND, type PersonFields, type PersonKind } from "../people/kinds.ts";
import { mapRow } from "./columns.ts";

export interface FileRow {
  line: number;
  cells: string[];
}

export type CheckedRow =
  /** `password` null: the person is invited to choose one (D55). */
  | { line: number; status: "ok"; fields: PersonFields; password: string | null }
  | { line: number; status: "invalid" | "skipped"; reason: string };

/** What the portal already has that a file's rows are checked against. */
export interface Lookups {
  /** What the rows may name as assigned (`PersonKind.loadAssignable`): workbooks, or clients by Client ID. */
  assignable: Map<string, number | null>;
  /**
   * Existing accounts by email: whether the row may take it over (`createSignInAccount`: a deleted person's
   * disabled account, or a delegate's), and the person record it has.
   */
  accounts: Map<string, { reusable: boolean; businessId: string | null; kind: TPersonKind | null }>;
  /** Business ids already in use (of the imported kind) → the email they belong to. */
  businessIds: Map<string, string>;
}

/** Cells of a list field (workbooks, clients): separated by ; | , or line breaks. */
export function splitList(cell: string): string[] {
  return [
    ...new Set(
      cell
        .split(/[;|,\n]/)
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * Reads what the rows refer to, in a few queries whatever the file's size: the workbook catalogue, the
 * clients named in Assigned Clients, and the accounts and business ids the rows' emails and ids already have.
 */
export async function loadLookups(
  db: Executor,
  kind: TPersonKind,
  mapping: TImportMapping,
  rows: FileRow[],
): Promise<Lookups> {
  const values = rows.map((row) => mapRow(row.cells, mapping));
  const emails = [...new Set(values.map((v) => (v.email ?? "").trim().toLowerCase()).filter(Boolean))];
  const person: PersonKind = PERSON_KIND[kind];
  const businessIds = [
    ...new Set(values.map((v) => (v[person.words.businessIdField] ?? "").trim()).filter(Boolean)),
  ];
  const referenced = [...new Set(values.flatMap((v) => splitList(v[person.assignedField] ?? "")))];
  const assignable = await person.loadAssignable(db, referenced);

  const accounts: Lookups["accounts"] = new Map();
  if (emails.length > 0) {
    const found = rowsOf<{
      email: string;
      role: string | null;
      banned: boolean | null;
      client_id: string | null;
      employee_id: string | null;
    }>(
      await db.execute(sql`
        select u.email, u.role, u.banned, c.client_id, e.employee_id
          from users u
          left join clients c on c.user_id = u.id
          left join employees e on e.user_id = u.id
         where u.email = any(${sql.param(emails)}::text[])`),
    );
    for (const a of found) {
      const kindOf: TPersonKind | null =
        a.client_id !== null ? "client" : a.employee_id !== null ? "employee" : null;
      accounts.set(a.email, {
        // As createSignInAccount: an account without a client or employee record is taken over when it was
        // a deleted person's (disabled: a fresh start) or a delegate's (they keep their password).
        reusable: kindOf === null && (Boolean(a.banned) || a.role === "delegate"),
        businessId: a.client_id ?? a.employee_id,
        kind: kindOf,
      });
    }
  }

  const inUse = new Map<string, string>();
  if (businessIds.length > 0) {
    const found = rowsOf<{ id: string; email: string }>(
      await db.execute(
        sql`select ${sql.identifier(person.table.businessId)} as id, email from ${sql.identifier(person.table.name)}
             where ${sql.identifier(person.table.businessId)} = any(${sql.param(businessIds)}::text[])`,
      ),
    );
    for (const b of found) inUse.set(b.id, b.email);
  }
  return { assignable, accounts, businessIds: inUse };
}

/** zod's messages for a row, each naming its field ("All fields are required." becomes "Email is required."). */
function issueMessages(error: z.ZodError, labels: Record<string, string>): string[] {
  const missing = new Set(
    error.issues.filter((i) => i.message === ALL_FIELDS_REQUIRED).map((i) => String(i.path[0] ?? "")),
  );
  return [
    ...new Set(
      error.issues.flatMap((issue) => {
        const field = String(issue.path[0] ?? "");
        // An empty cell is "required", not also every other rule of the field.
        if (missing.has(field)) {
          return issue.message === ALL_FIELDS_REQUIRED ? [`${labels[field] ?? field} is required.`] : [];
        }
        return [issue.message];
      }),
    ),
  ];
}

const LABELS: Record<string, string> = {
  ...IMPORT_FIELD_LABELS,
  workbookIds: IMPORT_FIELD_LABELS.workbooks,
  clientIds: IMPORT_FIELD_LABELS.clients,
};

/** "build" or " VIEW " reads as the option; anything else is left for the contract to refuse. */
function privilegeOf(cell: string): string {
  const match = PRIVILEGES.find((p) => p.toLowerCase() === cell.trim().toLowerCase());
  return match ?? cell.trim();
}

/**
 * Every row checked with the Add Client / Add Employee contracts and the password policy, plus what only a
 * file can get wrong: a row of the wrong width, an email or business id twice in the file, workbooks and
 * clients the portal does not have. A person already in the portal with the same email and business id is
 * skipped (so importing the same file again creates nothing twice); an email or id that belongs to someone
 * else is a problem.
 */
export function checkRows(
  kind: TPersonKind,
  headers: string[],
  mapping: TImportMapping,
  rows: FileRow[],
  lookups: Lookups,
  /** Invitations can be mailed (D55): a row without a password is invited, as Add Client's `invite: true`. */
  options: { canInvite?: boolean } = {},
): CheckedRow[] {
  const person: PersonKind = PERSON_KIND[kind];
  const idField: TImportField = person.words.businessIdField;
  const idLabel = IMPORT_FIELD_LABELS[idField];
  const firstEmail = new Map<string, number>();
  const firstId = new Map<string, number>();
  return rows.map(({ line, cells }): CheckedRow => {
    const problems: string[] = [];
    if (cells.length !== headers.length) {
      problems.push(`The row has ${cells.length} cells; the header has ${headers.length}.`);
    }
    const v = mapRow(cells, mapping);
    const email = (v.email ?? "").trim().toLowerCase();
    const businessId = (v[idField] ?? "").trim();
    const invite = Boolean(options.canInvite) && (v.password ?? "") === "";

    const assigned: number[] = [];
    for (const name of splitList(v[person.assignedField] ?? "")) {
      const id = person.findAssigned(lookups.assignable, name);
      if (id === undefined) problems.push(`Unknown ${person.assignedNoun}: ${name}.`);
      else if (id === null) problems.push(`Workbook ${name} matches several workbooks; use its full name.`);
      else assigned.push(id);
    }
    const fields = {
      businessId: v[idField] ?? "",
      firstName: v.firstName ?? "",
      lastName: v.lastName ?? "",
      email: v.email ?? "",
      privilege: privilegeOf(v.privilege ?? ""),
      assigned,
    };
    // Checked with Add Client's / Add Employee's own contract; an invited row has no password to check.
    const parsed = invite
      ? person.schemas.inviteRequest.safeParse({ ...person.addRequestOf(fields), invite: true })
      : person.schemas.addRequest.safeParse(person.addRequestOf({ ...fields, password: v.password ?? "" }));
    const read = parsed.success ? person.readAdd(parsed.data as never) : null;
    if (!parsed.success) problems.push(...issueMessages(parsed.error, LABELS));
    else if (!invite) {
      const policy = passwordProblem(v.password ?? "", {
        email: read!.email,
        name: `${read!.firstName} ${read!.lastName}`,
      });
      if (policy) problems.push(`Password: ${policy}`);
    }

    if (email) {
      const earlier = firstEmail.get(email);
      if (earlier !== undefined) problems.push(`Email ${email} is also on line ${earlier}.`);
      else firstEmail.set(email, line);
    }
    if (businessId) {
      const earlier = firstId.get(businessId);
      if (earlier !== undefined) problems.push(`${idLabel} ${businessId} is also on line ${earlier}.`);
      else firstId.set(businessId, line);
    }

    const account = email ? lookups.accounts.get(email) : undefined;
    const idOwner = businessId ? lookups.businessIds.get(businessId) : undefined;
    if (account && account.kind === kind && account.businessId === businessId) {
      if (problems.length === 0) {
        return {
          line,
          status: "skipped",
          reason: `Already in the portal (${idLabel} ${businessId}, ${email}).`,
        };
      }
    } else {
      if (account && !account.reusable) problems.push("A user with this email already exists.");
      if (idOwner !== undefined) problems.push(`${idLabel} ${businessId} is already in use.`);
    }

    if (problems.length > 0 || !read) return { line, status: "invalid", reason: problems.join(" ") };
    return { line, status: "ok", fields: read, password: invite ? null : (v.password ?? "") };
  });
}
