import {
  PEOPLE,
  ZAddClientBodySchema,
  ZAddClientInviteRequestSchema,
  ZAddClientRequestSchema,
  ZAddClientResponseSchema,
  ZAddEmployeeBodySchema,
  ZAddEmployeeInviteRequestSchema,
  ZAddEmployeeRequestSchema,
  ZAddEmployeeResponseSchema,
  ZClientListQuerySchema,
  ZClientMutationResponseSchema,
  ZClientSchema,
  ZEditClientRequestSchema,
  ZEditEmployeeRequestSchema,
  ZEmployeeListQuerySchema,
  ZEmployeeMutationResponseSchema,
  ZEmployeeSchema,
  type TPersonKind,
  type TPrivilege,
} from "@portal/contracts";
import { inArray, sql, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Executor, Transaction } from "../db/client.ts";
import { clients, clientWorkbooks, employeeClients, workbooks } from "../db/schema.ts";
import type { ApiErrorCode } from "@portal/contracts";
import { AppError } from "../lib/errors.ts";
import { rows } from "../db/rows.ts";

/**
 * The people module's one table of what differs between clients and employees (issue 13): the table, the
 * list row's own columns, what each kind is assigned (workbooks to a client, clients to an employee), and the
 * rules of Edit Client and Edit Employee. Everything else (the routes, add, edit, delete, the lists, the CSV
 * import, invitations, sessions, resync) is written once in `people.ts`, `routes.ts` and their callers, for
 * any kind.
 */

/** An add or edit body read into the fields every kind has. */
export interface PersonFields {
  businessId: string;
  firstName: string;
  lastName: string;
  email: string;
  privilege: TPrivilege;
  /** The ids assigned: workbook ids of a client, client ids (c_id) of an employee. */
  assigned: number[];
}

export interface PersonEdit {
  id: number;
  businessId: string;
  firstName: string;
  lastName: string;
  privilege: TPrivilege;
  /** null: Edit Client keeps the assignments as they are. */
  assigned: number[] | null;
}

export interface PersonKind<
  K extends TPersonKind = TPersonKind,
  Row extends object = object,
  AddRequest extends z.ZodType = z.ZodType,
  AddBody extends z.ZodType = z.ZodType,
  Edit extends z.ZodType = z.ZodType,
  ListQuery extends z.ZodType = z.ZodType,
> {
  kind: K;
  /** The API's paths and words for the kind (contracts `PEOPLE`). */
  words: (typeof PEOPLE)[K];
  /** SQL names: the table and its internal and business id columns. */
  table: { name: "clients" | "employees"; id: "c_id" | "e_id"; businessId: "client_id" | "employee_id" };
  schemas: {
    row: z.ZodType<Row>;
    /** The spec's add payload with a password (also each row of a CSV import). */
    addRequest: AddRequest;
    /** The add payload of "Send an invitation": no password, `invite: true`. */
    inviteRequest: z.ZodType;
    /** POST add: with a password, or `invite: true` without one. */
    addBody: AddBody;
    addResponse: z.ZodType;
    edit: Edit;
    mutationResponse: z.ZodType;
    listQuery: ListQuery;
  };
  duplicateIdCode: ApiErrorCode;
  /** What the kind is assigned, as a CSV import column (`IMPORT_FIELDS`), and one of them in its messages. */
  assignedField: "workbooks" | "clients";
  assignedNoun: "workbook" | "client";
  /**
   * What a CSV file's cells may name as assigned, read once for the file: workbooks by full name or label
   * (null when a label is ambiguous), clients by Client ID. `names` are the cells' names.
   */
  loadAssignable(db: Executor, names: string[]): Promise<Map<string, number | null>>;
  /** A cell's name looked up in `loadAssignable`'s map: the id, null when ambiguous, undefined when unknown. */
  findAssigned(assignable: Map<string, number | null>, name: string): number | null | undefined;
  /** List order by sort key (every sort the list query accepts); `person` is the person's table. */
  orders: Record<z.output<ListQuery> extends { sort: infer S extends string } ? S : never, SQL>;
  /** The list row's columns only this kind has, for the `person`. */
  ownColumns: SQL;
  readAdd(body: z.output<AddRequest>): PersonFields;
  /** The add payload of fields read elsewhere (a CSV row), for `schemas.addRequest` to check. */
  addRequestOf(fields: Omit<PersonFields, "privilege"> & { privilege: string; password?: string }): object;
  readEdit(body: z.output<Edit>): PersonEdit;
  /** The assigned ids, checked: an unknown one is a readable 400. */
  checkAssigned(tx: Executor, ids: number[]): Promise<number[]>;
  /** Assigns (personId → id) pairs; with `replace`, the people's earlier assignments go first. */
  assign(tx: Transaction, pairs: { personId: number; id: number }[], replace?: number[]): Promise<void>;
  /** Edit rules beyond the fields (a client's privilege is read-only on Edit Client). */
  checkEdit(current: { privilege: TPrivilege }, edit: PersonEdit): void;
  /** Other sign-in accounts whose BI state changes when the person is deleted (a client's employees). */
  affectedByDelete(tx: Transaction, personId: number): Promise<string[]>;
}

/** A workbook's label in a CSV cell: the name before its Sigma id, any case, spaces, '-' or '_' alike. */
const workbookLabel = (name: string) => name.replace(/-[A-Za-z0-9]{22,24}$/, "");
const labelKey = (label: string) =>
  label
    .toLowerCase()
    .replace(/[\s_-]+/g, " ")
    .trim();

/** The workbooks with these ids; any unknown id is a readable 400. */
async function knownWorkbooks(tx: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await tx.select({ id: workbooks.id }).from(workbooks).where(inArray(workbooks.id, ids));
  const missing = ids.filter((id) => !found.some((w) => w.id === id));
  if (missing.length > 0) {
    throw new AppError(
      400,
      `Unknown workbook id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`,
      "UNKNOWN_WORKBOOK",
    );
  }
  return [...ids].sort((a, b) => a - b);
}

/** The clients with these internal ids; any unknown id is a readable 400. */
async function knownClients(tx: Executor, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const found = await tx.select({ cId: clients.cId }).from(clients).where(inArray(clients.cId, ids));
  const missing = ids.filter((id) => !found.some((c) => c.cId === id));
  if (missing.length > 0) {
    throw new AppError(
      400,
      `Unknown client id${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}.`,
      "UNKNOWN_CLIENT",
    );
  }
  return ids;
}

/** The list's orders: by the business id, names, email or creation; `person` is the person's table. */
function orders<B extends "client_id" | "employee_id">(businessId: B, id: "c_id" | "e_id") {
  const key = sql.raw(`person.${businessId}`);
  const tie = sql.raw(`person.${id}`);
  return {
    [businessId]: sql`${key} asc`,
    [`-${businessId}`]: sql`${key} desc`,
    first_name: sql`person.first_name asc, person.last_name asc, ${tie} asc`,
    "-first_name": sql`person.first_name desc, person.last_name desc, ${tie} desc`,
    last_name: sql`person.last_name asc, person.first_name asc, ${tie} asc`,
    "-last_name": sql`person.last_name desc, person.first_name desc, ${tie} desc`,
    email: sql`person.email asc`,
    "-email": sql`person.email desc`,
    created: sql`person.created_at asc, ${tie} asc`,
    "-created": sql`person.created_at desc, ${tie} desc`,
  } as Record<
    | B
    | `-${B}`
    | "first_name"
    | "-first_name"
    | "last_name"
    | "-last_name"
    | "email"
    | "-email"
    | "created"
    | "-created",
    SQL
  >;
}

export const clientKind = {
  kind: "client",
  words: PEOPLE.client,
  table: { name: "clients", id: "c_id", businessId: "client_id" },
  schemas: {
    row: ZClientSchema,
    addRequest: ZAddClientRequestSchema,
    inviteRequest: ZAddClientInviteRequestSchema,
    addBody: ZAddClientBodySchema,
    addResponse: ZAddClientResponseSchema,
    edit: ZEditClientRequestSchema,
    mutationResponse: ZClientMutationResponseSchema,
    listQuery: ZClientListQuerySchema,
  },
  duplicateIdCode: "DUPLICATE_CLIENT_ID",
  assignedField: "workbooks",
  assignedNoun: "workbook",
  async loadAssignable(db) {
    const assignable = new Map<string, number | null>();
    const catalogue = rows<{ id: number; workbook_name: string }>(
      await db.execute(sql`select id, workbook_name from workbooks order by id`),
    );
    for (const w of catalogue) assignable.set(w.workbook_name.toLowerCase(), w.id);
    for (const w of catalogue) {
      const key = `label:${labelKey(workbookLabel(w.workbook_name))}`;
      assignable.set(key, assignable.has(key) ? null : w.id);
    }
    return assignable;
  },
  findAssigned: (assignable, name) =>
    assignable.get(name.toLowerCase()) ?? assignable.get(`label:${labelKey(name)}`),
  orders: orders("client_id", "c_id"),
  ownColumns: sql`
      array(select cw.workbook_id from client_workbooks cw where cw.c_id = person.c_id order by cw.workbook_id) as workbook_ids,
      coalesce((select json_agg(json_build_object('first_name', e.first_name, 'last_name', e.last_name)
                                order by e.last_name, e.first_name, e.e_id)
                  from employee_clients ec join employees e on e.e_id = ec.e_id
                 where ec.c_id = person.c_id), '[]'::json) as employees`,
  readAdd: (body) => ({
    businessId: body.clientId,
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    privilege: body.privilege,
    assigned: body.workbookIds,
  }),
  addRequestOf: ({ businessId, assigned, ...fields }) => ({
    ...fields,
    clientId: businessId,
    workbookIds: assigned,
  }),
  readEdit: (body) => ({
    id: body.cId,
    businessId: body.clientId,
    firstName: body.firstName,
    lastName: body.lastName,
    privilege: body.privilege,
    // Edit Client changes the business id and names only (spec §5); privilege and workbooks stay.
    assigned: null,
  }),
  checkAssigned: knownWorkbooks,
  async assign(tx, pairs, replace = []) {
    if (replace.length > 0) await tx.delete(clientWorkbooks).where(inArray(clientWorkbooks.cId, replace));
    if (pairs.length > 0) {
      await tx.insert(clientWorkbooks).values(pairs.map((p) => ({ cId: p.personId, workbookId: p.id })));
    }
  },
  checkEdit(current, edit) {
    if (current.privilege !== edit.privilege) {
      throw new AppError(
        400,
        "A client's privilege cannot be changed on Edit Client.",
        "PRIVILEGE_READ_ONLY",
      );
    }
  },
  // The client's employees lose the teams they had only through this client.
  async affectedByDelete(tx, cId) {
    const found = rows<{ user_id: string }>(
      await tx.execute(sql`
        select e.user_id from employee_clients ec join employees e on e.e_id = ec.e_id where ec.c_id = ${cId}`),
    );
    return found.map((r) => r.user_id);
  },
} satisfies PersonKind<
  "client",
  z.output<typeof ZClientSchema>,
  typeof ZAddClientRequestSchema,
  typeof ZAddClientBodySchema,
  typeof ZEditClientRequestSchema,
  typeof ZClientListQuerySchema
>;

export const employeeKind = {
  kind: "employee",
  words: PEOPLE.employee,
  table: { name: "employees", id: "e_id", businessId: "employee_id" },
  schemas: {
    row: ZEmployeeSchema,
    addRequest: ZAddEmployeeRequestSchema,
    inviteRequest: ZAddEmployeeInviteRequestSchema,
    addBody: ZAddEmployeeBodySchema,
    addResponse: ZAddEmployeeResponseSchema,
    edit: ZEditEmployeeRequestSchema,
    mutationResponse: ZEmployeeMutationResponseSchema,
    listQuery: ZEmployeeListQuerySchema,
  },
  duplicateIdCode: "DUPLICATE_EMPLOYEE_ID",
  assignedField: "clients",
  assignedNoun: "client",
  async loadAssignable(db, names) {
    if (names.length === 0) return new Map();
    const found = rows<{ c_id: number; client_id: string }>(
      await db.execute(
        sql`select c_id, client_id from clients where client_id = any(${sql.param(names)}::text[])`,
      ),
    );
    return new Map(found.map((c) => [c.client_id, c.c_id]));
  },
  findAssigned: (assignable, name) => assignable.get(name),
  orders: orders("employee_id", "e_id"),
  ownColumns: sql`
      coalesce((select json_agg(json_build_object('c_id', c.c_id, 'first_name', c.first_name, 'last_name', c.last_name)
                                order by c.last_name, c.first_name, c.c_id)
                  from employee_clients ec join clients c on c.c_id = ec.c_id
                 where ec.e_id = person.e_id), '[]'::json) as clients`,
  readAdd: (body) => ({
    businessId: body.employeeId,
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    privilege: body.privilege,
    assigned: body.clientIds,
  }),
  addRequestOf: ({ businessId, assigned, ...fields }) => ({
    ...fields,
    employeeId: businessId,
    clientIds: assigned,
  }),
  readEdit: (body) => ({
    id: body.eId,
    businessId: body.employeeId,
    firstName: body.firstName,
    lastName: body.lastName,
    privilege: body.privilege,
    // Edit Employee: business id, names, privilege and the complete list of assigned clients.
    assigned: body.clientIds,
  }),
  checkAssigned: knownClients,
  async assign(tx, pairs, replace = []) {
    if (replace.length > 0) await tx.delete(employeeClients).where(inArray(employeeClients.eId, replace));
    if (pairs.length > 0) {
      await tx.insert(employeeClients).values(pairs.map((p) => ({ eId: p.personId, cId: p.id })));
    }
  },
  checkEdit() {},
  affectedByDelete: async () => [],
} satisfies PersonKind<
  "employee",
  z.output<typeof ZEmployeeSchema>,
  typeof ZAddEmployeeRequestSchema,
  typeof ZAddEmployeeBodySchema,
  typeof ZEditEmployeeRequestSchema,
  typeof ZEmployeeListQuerySchema
>;

/** Both kinds, by name: `/api/admin/invitations/{kind}/{id}`, a CSV import's kind. */
export const PERSON_KIND: { client: typeof clientKind; employee: typeof employeeKind } = {
  client: clientKind,
  employee: employeeKind,
};
export const personKinds = [clientKind, employeeKind] as const;
export type AnyPersonKind = (typeof personKinds)[number];

/** The person's SQL table and its id columns, for statements written once for both kinds. */
export function personTable(kind: Pick<PersonKind, "table">) {
  return {
    table: sql.identifier(kind.table.name),
    id: sql.identifier(kind.table.id),
    businessId: sql.identifier(kind.table.businessId),
  };
}
