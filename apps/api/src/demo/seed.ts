import { DEMO_ADMIN, DEMO_CLIENTS, DEMO_EMPLOYEE, DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { ZAddClientRequestSchema, ZAddEmployeeRequestSchema, ZWorkbookInputSchema } from "@portal/contracts";
import { eq, inArray } from "drizzle-orm";
import { clientKind, employeeKind } from "../people/kinds.ts";
import { addPerson } from "../people/people.ts";
import type { Actor } from "../audit/actor.ts";
import { addWorkbook } from "../workbooks/catalogue.ts";
import type { Auth } from "../auth/auth.ts";
import { enrolWithSecret, totpKeyOf, totpUri } from "../auth/two-factor.ts";
import { ensureUser } from "../accounts/accounts.ts";
import type { Database } from "../db/client.ts";
import { clients, employees, workbooks } from "../db/schema.ts";

export interface DemoSignIn {
  role: string;
  email: string;
  password: string;
  /** The demo admin's authenticator key (base32) and otpauth:// URI (DEVIATIONS D30). */
  totp?: { key: string; uri: string };
}

const SYSTEM: Actor = {
  userId: "system",
  email: "system",
  ip: null,
  userAgent: "demo seed",
  requestId: null,
};

/**
 * Seeds the demo firm (idempotent: what exists is left as it is): the admin, the workbook catalogue,
 * two clients with their workbooks and an employee assigned to both, through the same services the
 * admin API uses.
 */
export async function seedDemoData(auth: Auth, db: Database): Promise<DemoSignIn[]> {
  const { totpSecret, ...demoAdmin } = DEMO_ADMIN;
  const admin = await ensureUser(db, { ...demoAdmin, role: "admin", resetExisting: false });
  // Admins must use two-step verification: the demo admin's is set up with a published demo key, so a
  // new user can add it to an authenticator app from the start-up banner (DEVIATIONS D30).
  await enrolWithSecret(auth, db, admin.userId, totpSecret);
  const adminTotpUri = totpUri(totpSecret, DEMO_ADMIN.email);

  for (const w of DEMO_WORKBOOKS) {
    const [exists] = await db
      .select({ id: workbooks.id })
      .from(workbooks)
      .where(eq(workbooks.workbookName, w.workbookName));
    if (!exists) {
      await addWorkbook(
        db,
        ZWorkbookInputSchema.parse({ workbook_name: w.workbookName, team_name: w.teamName }),
        SYSTEM,
      );
    }
  }
  const catalogue = await db
    .select({ id: workbooks.id })
    .from(workbooks)
    .where(
      inArray(
        workbooks.workbookName,
        DEMO_WORKBOOKS.map((w) => w.workbookName),
      ),
    );

  for (const c of DEMO_CLIENTS) {
    const [exists] = await db
      .select({ cId: clients.cId })
      .from(clients)
      .where(eq(clients.clientId, c.clientId));
    if (exists) continue;
    const input = ZAddClientRequestSchema.parse({
      ...c,
      role: "client",
      workbookIds: catalogue.map((w) => w.id),
    });
    await addPerson(db, clientKind, clientKind.readAdd(input), input.password, SYSTEM);
  }

  const [employeeExists] = await db
    .select({ eId: employees.eId })
    .from(employees)
    .where(eq(employees.employeeId, DEMO_EMPLOYEE.employeeId));
  if (!employeeExists) {
    const assigned = await db
      .select({ cId: clients.cId })
      .from(clients)
      .where(inArray(clients.clientId, [...DEMO_EMPLOYEE.clientIds]));
    const { clientIds: _businessIds, ...employee } = DEMO_EMPLOYEE;
    const input = ZAddEmployeeRequestSchema.parse({
      ...employee,
      role: "employee",
      clientIds: assigned.map((c) => c.cId),
    });
    await addPerson(db, employeeKind, employeeKind.readAdd(input), input.password, SYSTEM);
  }

  return [
    {
      role: "admin",
      email: DEMO_ADMIN.email,
      password: DEMO_ADMIN.password,
      totp: { key: totpKeyOf(adminTotpUri), uri: adminTotpUri },
    },
    ...DEMO_CLIENTS.map((c) => ({ role: "client", email: c.email, password: c.password })),
    { role: "employee", email: DEMO_EMPLOYEE.email, password: DEMO_EMPLOYEE.password },
  ];
}
