import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { ADMIN, portalClient } from "./cluster.ts";
import type { Answer, Lane, LoadRequest } from "./fault-load.ts";

/**
 * What the fault tests set up through the portal (a workbook, a signed-in client, accounts that sign in
 * over and over) and the kinds of request their load is made of: the portal's own routes and Better Auth's.
 */

export const PASSWORD = "meadow-tinder-harbour-58";

export interface Seeded {
  admin: ReturnType<typeof portalClient>;
  workbook: { id: number; workbook_name: string };
  /** The session cookie of a client who is assigned `workbook`. */
  clientCookie: string;
  /** Accounts that only sign in: several, so no account's lock on guesses comes near (10 per 15 min). */
  signers: { email: string; password: string }[];
}

/** The body of Add Client for a person named by `n`, assigned `workbookId`. */
export const addClientBody = (prefix: string, n: string, workbookId: number) => ({
  clientId: `CL-${prefix}${n}`.toUpperCase(),
  firstName: "Fault",
  lastName: "Added",
  email: `${prefix}.${n}@example.com`.toLowerCase(),
  password: PASSWORD,
  role: "client",
  privilege: "View",
  workbookIds: [workbookId],
});

export async function seedPortal(publicUrl: string, prefix: string, signers = 3): Promise<Seeded> {
  const admin = portalClient(publicUrl);
  await admin.signIn(ADMIN.email, ADMIN.password);
  const [demo] = DEMO_WORKBOOKS;
  const added = await admin.call("POST", "/api/admin/addworkbook", {
    workbook_name: demo.workbookName,
    team_name: demo.teamName,
  });
  if (added.status !== 201) throw new Error(`addworkbook ${added.status}: ${await added.text()}`);
  const workbook = ((await added.json()) as { data: Seeded["workbook"] }).data;
  const add = async (n: string) => {
    const body = addClientBody(prefix, n, workbook.id);
    const res = await admin.call("POST", "/api/admin/addclient", body);
    if (res.status !== 201) throw new Error(`addclient ${res.status}: ${await res.text()}`);
    return { email: body.email, password: PASSWORD };
  };
  const viewer = portalClient(publicUrl);
  const main = await add("viewer");
  await viewer.signIn(main.email, main.password);
  const accounts = [];
  for (let i = 0; i < signers; i++) accounts.push(await add(`signer${i}`));
  return { admin, workbook, clientCookie: viewer.cookie, signers: accounts };
}

/** One kind of request, the same each time. */
export const steady = (request: LoadRequest): Lane => ({ next: () => request });

export const hasSession = (json: unknown) =>
  typeof (json as { session?: { id?: unknown } } | null)?.session?.id === "string";

/** Better Auth: sign in with a password, the accounts in turn. */
export function signInLane(signers: Seeded["signers"]): Lane {
  let turn = 0;
  return {
    next: () => ({
      kind: "sign-in",
      side: "auth",
      method: "POST",
      path: "/api/auth/sign-in/email",
      body: signers[turn++ % signers.length],
      expect: 200,
      verify: (json) => typeof (json as { token?: unknown } | null)?.token === "string",
    }),
  };
}

/** Better Auth: the session lookup the web app makes on every load. */
export const sessionLane = (cookie: string) =>
  steady({
    kind: "get-session",
    side: "auth",
    method: "GET",
    path: "/api/auth/get-session",
    cookie,
    expect: 200,
    verify: hasSession,
  });

/** The portal: a client's workbooks (never an empty list: the client is assigned one). */
export const myWorkbooksLane = (cookie: string) =>
  steady({
    kind: "me-workbooks",
    side: "portal",
    method: "GET",
    path: "/api/me/workbooks",
    cookie,
    expect: 200,
    verify: (json) => Array.isArray(json) && json.length > 0,
  });

/** The portal: the back office's client list. */
export const adminListLane = (cookie: string) =>
  steady({
    kind: "admin-list",
    side: "portal",
    method: "GET",
    path: "/api/admin/clients?limit=5",
    cookie,
    expect: 200,
    verify: Array.isArray,
  });

export interface AddedClient {
  cId: number;
  clientId: string;
  email: string;
}

/** The portal: Add Client (account, row, assigned workbook, BI member queued); each 201 goes to `acked`. */
export function addClientLane(
  cookie: string,
  prefix: string,
  workbookId: number,
  acked: AddedClient[],
): Lane {
  let n = 0;
  return {
    next: () => ({
      kind: "admin-add",
      side: "portal",
      method: "POST",
      path: "/api/admin/addclient",
      cookie,
      body: addClientBody(prefix, `load${n++}`, workbookId),
      expect: 201,
    }),
    settle(answer: Answer) {
      if (answer.status !== 201) return;
      const body = answer.body as ReturnType<typeof addClientBody>;
      const cId = (answer.json as { data?: { client?: { c_id?: number } } }).data?.client?.c_id;
      acked.push({ cId: cId ?? -1, clientId: body.clientId, email: body.email });
    },
  };
}
