import { DEMO_ADMIN, DEMO_CLIENTS, DEMO_EMPLOYEE } from "@portal/contracts/demo";
import type { Auth } from "../auth/auth.ts";
import { ensureUser } from "../auth/users.ts";
import type { Database } from "../db/client.ts";

export interface DemoSignIn {
  role: string;
  email: string;
  password: string;
}

/** Seeds the demo firm's sign-ins (idempotent: existing users are left as they are). */
export async function seedDemoData(auth: Auth, db: Database): Promise<DemoSignIn[]> {
  const people = [
    { role: "admin" as const, email: DEMO_ADMIN.email, name: DEMO_ADMIN.name, password: DEMO_ADMIN.password },
    ...DEMO_CLIENTS.map((c) => ({
      role: "client" as const,
      email: c.email,
      name: `${c.firstName} ${c.lastName}`,
      password: c.password,
    })),
    {
      role: "employee" as const,
      email: DEMO_EMPLOYEE.email,
      name: `${DEMO_EMPLOYEE.firstName} ${DEMO_EMPLOYEE.lastName}`,
      password: DEMO_EMPLOYEE.password,
    },
  ];
  for (const person of people) {
    await ensureUser(auth, db, { ...person, resetExisting: false });
  }
  return people.map(({ role, email, password }) => ({ role, email, password }));
}
