import type { TPrivilege } from "@portal/contracts";
import { sql } from "drizzle-orm";
import type { Executor } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import { notFound } from "../lib/errors.ts";
import { personTable, type PersonKind } from "./kinds.ts";

/** The spec's 404 for a person who does not exist: "Client not found." */
export const personNotFound = (kind: Pick<PersonKind, "words">) => notFound(`${kind.words.noun} not found.`);

/** The person's record, locked for the rest of the transaction when asked; undefined when there is none. */
export async function personRecord(db: Executor, kind: PersonKind, personId: number, lock = false) {
  const { table, id } = personTable(kind);
  const [row] = rows<{
    user_id: string;
    first_name: string;
    last_name: string;
    email: string;
    privilege: TPrivilege;
  }>(
    await db.execute(sql`
      select user_id, first_name, last_name, email, privilege from ${table}
       where ${id} = ${personId} ${lock ? sql`for update` : sql``}`),
  );
  return (
    row && {
      userId: row.user_id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      privilege: row.privilege,
    }
  );
}

/** `personRecord`, or the spec's 404 in the admin's words ("Client not found."). */
export async function findPerson(db: Executor, kind: PersonKind, personId: number, lock = false) {
  const person = await personRecord(db, kind, personId, lock);
  if (!person) throw personNotFound(kind);
  return person;
}
