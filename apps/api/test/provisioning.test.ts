import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startAnalyticsServer, type AnalyticsServer } from "@portal/analytics";
import { DEMO_WORKBOOKS } from "@portal/contracts/demo";
import { loadOrCreateLocalSigmaCredentials, SigmaRestClient } from "@portal/sigma";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import { provisioningRequests, users } from "../src/db/schema.ts";
import { enqueueOutbox } from "../src/outbox/requests.ts";
import {
  createSigmaRestClient,
  deliverDueRequests,
  startProvisioningWorker,
} from "../src/sigma/provisioning.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";

let database: DatabaseHandle;
let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: Record<string, string>;
let analytics: AnalyticsServer | undefined;
let analyticsPort: number;

beforeAll(async () => {
  database = await createTestDatabase();
  analyticsPort = await freePort();
  t = await createTestApp(database, {
    ANALYTICS_PORT: String(analyticsPort),
    AUTH_IP_LIMIT_PER_MINUTE: "10000",
  });
  admin = await headersFor(t, "admin");
});
afterAll(async () => {
  await analytics?.close();
  await t.app.close();
  await database.close();
});

/** The built-in analytics server, sharing the portal's DATA_DIR credentials as `npm start` does. */
function startAnalytics() {
  return startAnalyticsServer({
    logger: false,
    buildFrontEnd: false,
    env: {
      DATA_DIR: t.config.dataDir,
      ANALYTICS_PORT: String(analyticsPort),
      ANALYTICS_LOG_LEVEL: "silent",
      ANALYTICS_DEMO_SIZE: "2",
    },
  });
}

/**
 * An HTTP server in front of the analytics server's REST API that passes requests through, unless
 * `intercept` answers one itself (returns true).
 */
function forwardingProxy(
  intercept: (req: IncomingMessage, res: ServerResponse) => boolean = () => false,
): Server {
  return createServer((req, res) => {
    if (intercept(req, res)) return;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      fetch(`${analytics!.url}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(
          Object.entries(req.headers).filter(([k]) => !["host", "content-length", "connection"].includes(k)),
        ) as Record<string, string>,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      }).then(
        async (upstream) => {
          res.writeHead(upstream.status, {
            "content-type": upstream.headers.get("content-type") ?? "application/json",
          });
          res.end(Buffer.from(await upstream.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
    });
  });
}

const pending = async () =>
  (await database.db.select().from(provisioningRequests).where(eq(provisioningRequests.status, "pending")))
    .length;

async function deliverAll(client: SigmaRestClient) {
  for (let round = 0; round < 20 && (await pending()) > 0; round++) {
    await database.db.execute(
      sql`update provisioning_requests set next_attempt_at = now() where status = 'pending'`,
    );
    await deliverDueRequests({ db: database.db, client, config: t.config, baseDelayMs: 10 });
  }
}

describe("provisioning outbox", () => {
  it(
    "keeps admin changes while the BI service is down and delivers them once, in order, when it is back",
    { timeout: 180_000 },
    async () => {
      const wb = (
        await t.app.inject({
          method: "POST",
          url: "/api/admin/addworkbook",
          headers: admin,
          // The built-in server's Portfolio Overview, under another catalogue name: it is shared with the team.
          payload: { workbook_name: "Outbox-Review-wBUBiChqcA6De2yMJGx4YJ", team_name: "Outbox Team" },
        })
      ).json().data;
      const add = await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload: {
          clientId: "CL-OUT",
          firstName: "Otto",
          lastName: "Box",
          email: "otto.box@example.com",
          password: "outbox-client-passphrase",
          role: "client",
          privilege: "Act",
          workbookIds: [wb.id],
        },
      });
      expect(add.statusCode).toBe(201);
      const cId = add.json().data.client.c_id;
      await t.app.inject({
        method: "PUT",
        url: "/api/admin/editclient",
        headers: admin,
        payload: { cId, clientId: "CL-OUT", firstName: "Otto", lastName: "Boxwell", privilege: "Act" },
      });

      // The BI service is down: nothing is lost, every request stays pending with the reason.
      const client = await createSigmaRestClient(t.config);
      await deliverDueRequests({ db: database.db, client, config: t.config, baseDelayMs: 10 });
      const queued = await database.db
        .select()
        .from(provisioningRequests)
        .orderBy(provisioningRequests.createdAt);
      expect(queued.map((q) => q.kind)).toEqual(["workbook.share", "member.upsert", "member.upsert"]);
      expect(queued.every((q) => q.status === "pending")).toBe(true);
      expect(queued[0]!.attempts).toBe(1);
      expect(queued[0]!.lastError).toMatch(/could not be reached/);
      // The person's second change waited behind the first: only the first was tried.
      expect(queued[2]!.attempts).toBe(0);

      analytics = await startAnalytics();
      await deliverAll(client);
      const after = await database.db.select().from(provisioningRequests);
      expect(after.every((q) => q.status === "done")).toBe(true);

      const members = (await client.listMembers({ includeArchived: true })).filter(
        (m) => m.email === "otto.box@example.com",
      );
      expect(members).toHaveLength(1);
      expect(members[0]).toMatchObject({
        firstName: "Otto",
        lastName: "Boxwell",
        memberType: "Act",
      });
      expect(members[0]!.isArchived ?? false).toBe(false);
      const [team] = (await client.listTeams("Outbox Team")).filter((x) => x.name === "Outbox Team");
      expect(team).toBeDefined();
      const teamMembers = await client.getTeamMembers(team!.teamId);
      expect(teamMembers.map((m) => m.userId)).toEqual([members[0]!.memberId]);

      // Deleting the client deactivates (archives) the member.
      await t.app.inject({ method: "DELETE", url: `/api/admin/deleteclient/${cId}`, headers: admin });
      await deliverAll(client);
      expect((await client.findMemberByEmail("otto.box@example.com"))?.isArchived).toBe(true);
    },
  );

  it("retries a 429 answer and still delivers once", { timeout: 120_000 }, async () => {
    analytics ??= await startAnalytics();
    let refusals = 2;
    const proxy = forwardingProxy((req, res) => {
      if (req.url?.startsWith("/v2/members") && refusals > 0) {
        refusals -= 1;
        res.writeHead(429, { "content-type": "application/json" });
        res.end(JSON.stringify({ requestId: "r", message: "Too many requests", code: "rate_limited" }));
        return true;
      }
      return false;
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const creds = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);
      const client = new SigmaRestClient({
        apiBaseUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
        clientId: creds.apiClientId,
        clientSecret: creds.apiClientSecret,
        retryDelaysMs: [],
      });
      const [user] = await database.db
        .insert(users)
        .values({ id: "retry-user", name: "Rita Retry", email: "rita.retry@example.com", role: "employee" })
        .returning();
      await enqueueOutbox(database.db, {
        userId: user!.id,
        kind: "member.upsert",
        payload: { email: "rita.retry@example.com", firstName: "Rita", lastName: "Retry", privilege: "View" },
      });
      await deliverAll(client);
      expect(refusals).toBe(0);
      const [row] = await database.db
        .select()
        .from(provisioningRequests)
        .where(eq(provisioningRequests.userId, "retry-user"));
      expect(row, String(row?.lastError)).toMatchObject({ status: "done" });
      expect(row!.attempts).toBeGreaterThanOrEqual(2);
      const found = await client.listMembers({ email: "rita.retry@example.com", includeArchived: true });
      expect(found).toHaveLength(1);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it(
    "marks a permanent error as failed with its reason, and holds that person's later changes",
    { timeout: 120_000 },
    async () => {
      analytics ??= await startAnalytics();
      const client = await createSigmaRestClient(t.config);
      const [user] = await database.db
        .insert(users)
        .values({ id: "bad-user", name: "Bad Email", email: "bad-user@example.com", role: "client" })
        .returning();
      await enqueueOutbox(database.db, {
        userId: user!.id,
        kind: "member.upsert",
        payload: { email: "not-an-email", firstName: "Bad", lastName: "Email", privilege: "View" },
      });
      await new Promise((r) => setTimeout(r, 5));
      await enqueueOutbox(database.db, {
        userId: user!.id,
        kind: "member.deactivate",
        payload: { email: "not-an-email" },
      });
      await deliverAll(client);
      const rowsForUser = await database.db
        .select()
        .from(provisioningRequests)
        .where(eq(provisioningRequests.userId, "bad-user"))
        .orderBy(provisioningRequests.createdAt);
      expect(rowsForUser[0]).toMatchObject({ status: "failed", attempts: 1 });
      // Refused before it is sent: it does not fit Sigma's createMember.
      expect(rowsForUser[0]!.lastError).toMatch(/createMember.*email/);
      expect(rowsForUser[1]).toMatchObject({ status: "pending", attempts: 0 });
    },
  );
  it(
    "re-sends a failed member update with the person's current state, so fixing the cause and retrying is enough",
    { timeout: 120_000 },
    async () => {
      analytics ??= await startAnalytics();
      const client = await createSigmaRestClient(t.config);
      const addWorkbook = async (workbook_name: string, team_name: string) =>
        (
          await t.app.inject({
            method: "POST",
            url: "/api/admin/addworkbook",
            headers: admin,
            payload: { workbook_name, team_name },
          })
        ).json().data;
      // The firm's identity provider (SCIM) deactivated the member with this email in the BI service: only
      // the firm can bring them back there, so the portal's change fails with the reason.
      const existing = await client.createMember({
        email: "fay.fixer@example.com",
        firstName: "Fay",
        lastName: "Fixer",
        memberType: "View",
        userKind: "embed",
      });
      await client.updateMember(existing.memberId, { isInactive: true });
      const workbook = await addWorkbook("Fix-Second-hPiZspmSJMAnf8GyCctPAE", "Fixable Team");
      const add = await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload: {
          clientId: "CL-FIX",
          firstName: "Fay",
          lastName: "Fixer",
          email: "fay.fixer@example.com",
          password: "fixable-client-passphrase",
          role: "client",
          privilege: "View",
          workbookIds: [workbook.id],
        },
      });
      expect(add.statusCode).toBe(201);
      const cId = add.json().data.client.c_id;
      await deliverAll(client);
      const listed = async () =>
        (await t.app.inject({ method: "GET", url: "/api/admin/clients?q=CL-FIX", headers: admin })).json()[0];
      expect(await listed()).toMatchObject({
        sync_status: "failed",
        sync_error: expect.stringMatching(/identity provider \(SCIM\)/),
      });

      // Meanwhile the admin corrects her name (held behind the failed change); the firm reactivates her in
      // Sigma; the admin retries: the retry carries her current state.
      const edited = await t.app.inject({
        method: "PUT",
        url: "/api/admin/editclient",
        headers: admin,
        payload: { cId, clientId: "CL-FIX", firstName: "Fay", lastName: "Fixed", privilege: "View" },
      });
      expect(edited.statusCode).toBe(200);
      await client.updateMember(existing.memberId, { isInactive: false });
      const retry = await t.app.inject({
        method: "POST",
        url: `/api/admin/resyncclient/${cId}`,
        headers: admin,
      });
      expect(retry.statusCode).toBe(200);
      expect(retry.json().requeued).toBeGreaterThanOrEqual(1);
      await deliverAll(client);
      expect(await listed()).toMatchObject({ sync_status: "synced" });
      const member = await client.findMemberByEmail("fay.fixer@example.com");
      expect(member).toMatchObject({ memberId: existing.memberId, lastName: "Fixed" });
      const [team] = (await client.listTeams("Fixable Team")).filter((x) => x.name === "Fixable Team");
      expect((await client.getTeamMembers(team!.teamId)).map((m) => m.userId)).toEqual([member!.memberId]);
    },
  );
  it(
    "takes people out of the portal's teams they no longer see, and leaves other teams alone",
    { timeout: 120_000 },
    async () => {
      analytics ??= await startAnalytics();
      const client = await createSigmaRestClient(t.config);
      const call = (method: "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
        t.app.inject({ method, url, headers: admin, ...(payload ? { payload } : {}) });
      const keep = (
        await call("POST", "/api/admin/addworkbook", {
          workbook_name: "Team-Keep-EEEEEEEEEEEEEEEEEEEEEE",
          team_name: "Keep Team",
        })
      ).json().data;
      const leave = (
        await call("POST", "/api/admin/addworkbook", {
          workbook_name: "Team-Leave-FFFFFFFFFFFFFFFFFFFFFF",
          team_name: "Leave Team",
        })
      ).json().data;
      const added = await call("POST", "/api/admin/addclient", {
        clientId: "CL-TEAM",
        firstName: "Tess",
        lastName: "Teams",
        email: "tess.teams@example.com",
        password: "team-client-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [keep.id, leave.id],
      });
      expect(added.statusCode).toBe(201);
      const cId = added.json().data.client.c_id;
      const employee = await call("POST", "/api/admin/addemployee", {
        employeeId: "EM-TEAM",
        firstName: "Ed",
        lastName: "Teams",
        email: "ed.teams@meridian-advisory.example",
        password: "team-employee-passphrase",
        role: "employee",
        privilege: "View",
        clientIds: [cId],
      });
      expect(employee.statusCode).toBe(201);
      await deliverAll(client);

      const tess = (await client.findMemberByEmail("tess.teams@example.com"))!;
      const ed = (await client.findMemberByEmail("ed.teams@meridian-advisory.example"))!;
      const teamId = async (name: string) =>
        (await client.listTeams(name)).find((x) => x.name === name && !x.isArchived)!.teamId;
      const membersOf = async (name: string) =>
        (await client.getTeamMembers(await teamId(name))).map((m) => m.userId).sort();
      expect(await membersOf("Keep Team")).toEqual([tess.memberId, ed.memberId].sort());
      expect(await membersOf("Leave Team")).toEqual([tess.memberId, ed.memberId].sort());
      // A team made in the BI service by someone else, not by the portal.
      const outside = await client.createTeam({ name: "Outside Team" });
      await client.updateTeamMembers(outside.teamId, { add: [tess.memberId] });

      expect((await call("DELETE", `/api/admin/deleteworkbook/${leave.id}`)).statusCode).toBe(200);
      await deliverAll(client);
      expect(await membersOf("Leave Team")).toEqual([]);
      expect(await membersOf("Keep Team")).toEqual([tess.memberId, ed.memberId].sort());
      expect(await membersOf("Outside Team")).toEqual([tess.memberId]);

      const edited = await call("PUT", "/api/admin/editemployee", {
        eId: employee.json().data.employee.e_id,
        employeeId: "EM-TEAM",
        firstName: "Ed",
        lastName: "Teams",
        privilege: "View",
        clientIds: [],
      });
      expect(edited.statusCode).toBe(200);
      await deliverAll(client);
      expect(await membersOf("Keep Team")).toEqual([tess.memberId]);
    },
  );
  it(
    "after an outage, waiting changes go as soon as the BI service answers, not after their backoff",
    { timeout: 60_000 },
    async () => {
      analytics ??= await startAnalytics();
      const port = await freePort();
      const creds = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);
      const client = new SigmaRestClient({
        apiBaseUrl: `http://127.0.0.1:${port}`,
        clientId: creds.apiClientId,
        clientSecret: creds.apiClientSecret,
        retryDelaysMs: [],
      });
      const people = ["olga.outage@example.com", "oscar.outage@example.com"];
      for (const email of people) {
        const [user] = await database.db
          .insert(users)
          .values({ id: email, name: "Outage Person", email, role: "client" })
          .returning();
        await enqueueOutbox(database.db, {
          userId: user!.id,
          kind: "member.upsert",
          payload: { email, firstName: "Outage", lastName: "Person", privilege: "View" },
        });
      }
      const mine = () =>
        database.db
          .select()
          .from(provisioningRequests)
          .where(sql`${provisioningRequests.userId} in (${people[0]}, ${people[1]})`);
      const until = async (check: () => Promise<boolean>, ms: number) => {
        const deadline = Date.now() + ms;
        while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        return check();
      };
      // The backoff at its five-minute cap: without the probe nothing would be tried again during this test.
      const worker = startProvisioningWorker({
        db: database.db,
        client,
        config: t.config,
        baseDelayMs: 3_600_000,
        intervalMs: 50,
        probeMs: 300,
      });
      let proxy: Server | undefined;
      try {
        expect(
          await until(
            // Tried and settled: a claim counts the attempt as it starts, and holds the lease until it ends.
            async () =>
              (await mine()).every((r) => r.attempts >= 1 && r.status === "pending" && r.leaseOwner === null),
            10_000,
          ),
        ).toBe(true);
        const waiting = await mine();
        for (const r of waiting) expect(r.lastError).toMatch(/^The BI service could not be reached/);
        expect(waiting.every((r) => r.nextAttemptAt.getTime() > Date.now() + 3 * 60_000)).toBe(true);
        expect(waiting.every((r) => r.nextAttemptAt.getTime() < Date.now() + 6.1 * 60_000)).toBe(true);
        expect(waiting.every((r) => r.waitingSince !== null)).toBe(true);

        // The service comes back on the same address.
        proxy = forwardingProxy();
        await new Promise<void>((resolve) => proxy!.listen(port, "127.0.0.1", resolve));
        expect(await until(async () => (await mine()).every((r) => r.status === "done"), 10_000)).toBe(true);
        for (const email of people) expect(await client.findMemberByEmail(email)).toBeDefined();
      } finally {
        await worker.stop();
        if (proxy) await new Promise((resolve) => proxy!.close(resolve));
      }
    },
  );
});

describe("the outbox as a work queue", () => {
  /** A REST client for the analytics server behind `proxy` (or directly), without client-side retries. */
  async function clientFor(baseUrl: string) {
    const creds = await loadOrCreateLocalSigmaCredentials(t.config.dataDir);
    return new SigmaRestClient({
      apiBaseUrl: baseUrl,
      clientId: creds.apiClientId,
      clientSecret: creds.apiClientSecret,
      retryDelaysMs: [],
    });
  }
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const close = (server: Server) => new Promise((resolve) => server.close(resolve));
  const until = async (check: () => Promise<boolean>, ms: number) => {
    const deadline = Date.now() + ms;
    while (!(await check()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return check();
  };
  const person = async (email: string) => {
    const [user] = await database.db
      .insert(users)
      .values({ id: `queue-${email}`, name: "Queue Person", email, role: "client" })
      .returning();
    return user!.id;
  };

  it(
    "two workers deliver every change exactly once and each person's changes in order",
    { timeout: 120_000 },
    async () => {
      analytics ??= await startAnalytics();
      // Every member change the BI service receives, in the order it received them.
      const received: { memberId: string; lastName: string }[] = [];
      const proxy = forwardingProxy((req) => {
        if (req.method === "PATCH" && req.url?.startsWith("/v2/members/")) {
          const chunks: Buffer[] = [];
          req.on("data", (c: Buffer) => chunks.push(c));
          req.on("end", () => {
            const memberId = req.url!.split("/")[3]!;
            received.push({ memberId, lastName: JSON.parse(Buffer.concat(chunks).toString()).lastName });
          });
        }
        return false;
      });
      const client = await clientFor(await listen(proxy));
      const emails = Array.from({ length: 8 }, (_, i) => `queue.order${i}@example.com`);
      // Each person is created, then renamed five times: Edit1 … Edit5, all queued before delivery starts.
      for (const email of emails) {
        const userId = await person(email);
        for (let v = 0; v <= 5; v++) {
          await enqueueOutbox(database.db, {
            userId,
            kind: "member.upsert",
            payload: {
              email,
              firstName: "Queue",
              lastName: v === 0 ? "Start" : `Edit${v}`,
              privilege: "View",
            },
          });
        }
      }
      const direct = await clientFor(analytics.url);
      const workers = ["one", "two"].map((name) =>
        startProvisioningWorker({
          db: database.db,
          client,
          config: t.config,
          owner: `instance-${name}`,
          intervalMs: 20,
          concurrency: 3,
        }),
      );
      try {
        const mine = () =>
          database.db
            .select()
            .from(provisioningRequests)
            .where(sql`${provisioningRequests.subject} like 'queue.order%'`);
        expect(await until(async () => (await mine()).every((r) => r.status === "done"), 60_000)).toBe(true);
        const rowsDone = await mine();
        expect(rowsDone).toHaveLength(48);
        // Claimed once each: no row was taken by both workers, none was tried twice.
        expect(rowsDone.map((r) => r.attempts)).toEqual(rowsDone.map(() => 1));
        for (const email of emails) {
          const members = (await direct.listMembers({ email, includeArchived: true })).filter(
            (m) => m.email === email,
          );
          expect(members).toHaveLength(1);
          expect(members[0]!.lastName).toBe("Edit5");
          const renames = received.filter((r) => r.memberId === members[0]!.memberId).map((r) => r.lastName);
          expect(renames).toEqual(["Edit1", "Edit2", "Edit3", "Edit4", "Edit5"]);
        }
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await close(proxy);
      }
    },
  );

  it("a 409 on create adopts the team or member that now exists", { timeout: 60_000 }, async () => {
    analytics ??= await startAnalytics();
    const direct = await clientFor(analytics.url);
    // Someone (another instance, an earlier attempt whose answer was lost) creates the same thing
    // between the portal's look-up and its create: the create answers 409.
    let raced = 0;
    const proxy = forwardingProxy((req, res) => {
      if (req.method !== "POST" || !(req.url === "/v2/teams" || req.url === "/v2/members")) return false;
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        const made =
          req.url === "/v2/teams"
            ? direct.createTeam({ name: body.name })
            : direct.createMember({ ...body, memberType: body.memberType });
        void made.then(() => {
          raced += 1;
          res.writeHead(409, { "content-type": "application/json" });
          res.end(JSON.stringify({ requestId: "r", code: "conflict", message: "It exists." }));
        });
      });
      return true;
    });
    const client = await clientFor(await listen(proxy));
    try {
      const userId = await person("queue.adopt@example.com");
      await enqueueOutbox(database.db, { kind: "team.upsert", payload: { name: "Adopted Team" } });
      await enqueueOutbox(database.db, {
        userId,
        kind: "member.upsert",
        payload: {
          email: "queue.adopt@example.com",
          firstName: "Ada",
          lastName: "Adopt",
          privilege: "View",
          teams: ["Adopted Team"],
        },
      });
      await deliverAll(client);
      expect(raced).toBe(2);
      const rowsAfter = await database.db
        .select()
        .from(provisioningRequests)
        .where(sql`${provisioningRequests.subject} in ('team:Adopted Team', 'queue.adopt@example.com')`);
      expect(rowsAfter.map((r) => r.status)).toEqual(["done", "done"]);
      const member = (await direct.findMemberByEmail("queue.adopt@example.com"))!;
      const team = (await direct.listTeams("Adopted Team")).filter((x) => x.name === "Adopted Team");
      expect(team).toHaveLength(1);
      expect((await direct.getTeamMembers(team[0]!.teamId)).map((m) => m.userId)).toEqual([member.memberId]);
    } finally {
      await close(proxy);
    }
  });

  it(
    "an overloaded or failing service is never a failure: 5xx, 408 and 429 are retried until they go through",
    { timeout: 60_000 },
    async () => {
      analytics ??= await startAnalytics();
      const answers = [500, 502, 503, 408, 429, 500, 504, 500, 503, 500, 500, 500];
      const proxy = forwardingProxy((req, res) => {
        if (!req.url?.startsWith("/v2/members") || answers.length === 0) return false;
        res.writeHead(answers.shift()!, { "content-type": "application/json" });
        res.end(JSON.stringify({ requestId: "r", code: "busy", message: "Try again" }));
        return true;
      });
      const client = await clientFor(await listen(proxy));
      try {
        const userId = await person("queue.busy@example.com");
        await enqueueOutbox(database.db, {
          userId,
          kind: "member.upsert",
          payload: { email: "queue.busy@example.com", firstName: "Bea", lastName: "Busy", privilege: "View" },
        });
        const row = async () =>
          (
            await database.db
              .select()
              .from(provisioningRequests)
              .where(eq(provisioningRequests.subject, "queue.busy@example.com"))
          )[0]!;
        for (let round = 0; round < 30 && (await row()).status === "pending"; round++) {
          await database.db.execute(
            sql`update provisioning_requests set next_attempt_at = now() where subject = 'queue.busy@example.com'`,
          );
          const before = await row();
          await deliverDueRequests({ db: database.db, client, config: t.config, baseDelayMs: 10 });
          const after = await row();
          if (after.status === "pending") {
            // Still waiting: never failed, with the reason and since when.
            expect(after.waitingSince).not.toBeNull();
            expect(after.lastError).toMatch(/Sigma API (5\d\d|408|429)/);
            expect(after.attempts).toBe(before.attempts + 1);
          }
        }
        expect(answers).toHaveLength(0);
        expect(await row()).toMatchObject({
          status: "done",
          attempts: 13,
          waitingSince: null,
          lastError: null,
        });
      } finally {
        await close(proxy);
      }
    },
  );

  it("a claim lasts its lease: a worker that died leaves its rows to another once the lease ends", async () => {
    analytics ??= await startAnalytics();
    const userId = await person("queue.lease@example.com");
    await enqueueOutbox(database.db, {
      userId,
      kind: "member.upsert",
      payload: { email: "queue.lease@example.com", firstName: "Lee", lastName: "Lease", privilege: "View" },
    });
    const mineOnly = sql`${provisioningRequests.subject} = 'queue.lease@example.com'`;
    // The dead worker claimed it and never answered.
    const claimed = await database.db.execute(sql`
      update provisioning_requests set lease_owner = 'dead', lease_expires_at = now() + interval '400 milliseconds',
        attempts = attempts + 1 where ${mineOnly} returning id`);
    expect((claimed as unknown as { rows: unknown[] }).rows).toHaveLength(1);
    const client = await clientFor(analytics.url);
    expect(await deliverDueRequests({ db: database.db, client, config: t.config, owner: "alive" })).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(await deliverDueRequests({ db: database.db, client, config: t.config, owner: "alive" })).toBe(1);
    const [row] = await database.db.select().from(provisioningRequests).where(mineOnly);
    expect(row).toMatchObject({ status: "done", attempts: 2, leaseOwner: null });
  });

  it("stopping a worker gives back its claims at once", async () => {
    // A service that never answers: the delivery in flight holds its claim until the worker stops.
    const hang = createServer(() => undefined);
    const client = await clientFor(await listen(hang));
    const userId = await person("queue.stop@example.com");
    await enqueueOutbox(database.db, {
      userId,
      kind: "member.upsert",
      payload: { email: "queue.stop@example.com", firstName: "Stu", lastName: "Stop", privilege: "View" },
    });
    const mineOnly = sql`${provisioningRequests.subject} = 'queue.stop@example.com'`;
    const worker = startProvisioningWorker({ db: database.db, client, config: t.config, intervalMs: 20 });
    try {
      expect(
        await until(
          async () =>
            (await database.db.select().from(provisioningRequests).where(mineOnly))[0]!.leaseOwner !== null,
          5_000,
        ),
      ).toBe(true);
      await worker.stop(200);
      const [row] = await database.db.select().from(provisioningRequests).where(mineOnly);
      expect(row).toMatchObject({ status: "pending", leaseOwner: null, leaseExpiresAt: null });
    } finally {
      hang.closeAllConnections();
      await close(hang);
    }
  });

  it(
    "a client deleted and added again with the same email is reactivated in the BI service and views their workbooks",
    { timeout: 120_000 },
    async () => {
      analytics ??= await startAnalytics();
      const client = await clientFor(analytics.url);
      const wb = (
        await t.app.inject({
          method: "POST",
          url: "/api/admin/addworkbook",
          headers: admin,
          // A workbook the analytics server has, under its own team.
          payload: { workbook_name: DEMO_WORKBOOKS[1].workbookName, team_name: DEMO_WORKBOOKS[1].teamName },
        })
      ).json().data;
      const payload = {
        clientId: "CL-BACK",
        firstName: "Rhea",
        lastName: "Turner",
        email: "rhea.turner@example.com",
        password: "returning-client-passphrase",
        role: "client",
        privilege: "View",
        workbookIds: [wb.id],
      };
      const first = await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload,
      });
      expect(first.statusCode).toBe(201);
      await deliverAll(client);
      await t.app.inject({
        method: "DELETE",
        url: `/api/admin/deleteclient/${first.json().data.client.c_id}`,
        headers: admin,
      });
      await deliverAll(client);
      expect((await client.findMemberByEmail(payload.email))?.isArchived).toBe(true);

      const again = await t.app.inject({
        method: "POST",
        url: "/api/admin/addclient",
        headers: admin,
        payload,
      });
      expect(again.statusCode).toBe(201);
      await deliverAll(client);
      const member = await client.findMemberByEmail(payload.email);
      expect(member?.isArchived ?? false).toBe(false);
      expect(member?.isInactive ?? false).toBe(false);

      const headers = { cookie: await t.sessionCookie(payload.email, payload.password), origin: ORIGIN };
      const embed = await t.app.inject({
        method: "POST",
        url: "/api/sigma/provision-and-embed",
        headers,
        payload: { workbookId: wb.workbook_name },
      });
      expect(embed.statusCode).toBe(200);
      const page = await fetch(embed.json().embedUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toMatch(/deactivated/);
    },
  );
});
