import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditChainKey, verifyAuditChain } from "../../src/audit/chain.ts";
import { fromPostgres } from "../../src/db/client.ts";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres.ts";
import { startPrivateRedis, type PrivateRedis } from "../support/private-redis.ts";
import { startCluster, type Cluster, type Instance } from "./cluster.ts";
import {
  addClientBody,
  addClientLane,
  adminListLane,
  seedPortal,
  sessionLane,
  signInLane,
  type AddedClient,
  type Seeded,
} from "./fault-lanes.ts";
import {
  capped,
  clock,
  crashReport,
  failedRequestIds,
  instanceErrors,
  loadProblems,
  readiness,
  startLoad,
  summary,
  waitFor,
  type Answer,
  type Lane,
} from "./fault-load.ts";

/**
 * The operator issue's "several faults at once": two instances behind the balancer on PostgreSQL and Redis
 * of the test's own, under a mixed load (sign-ins, session lookups, embeds, admin lists and writes), while
 * Redis is stopped for 30 s, PostgreSQL is restarted during it, the BI service is away for a minute and one
 * instance is killed and started again, overlapping. Afterwards: no acknowledged write is lost, no change
 * fails for good, the audit chain verifies, both instances are ready within 10 s of the last fault, and
 * nothing but 503 answered 5xx. A request in flight on the killed instance gets the balancer's own 502:
 * counted apart, and allowed only for requests sent before the kill and cut by it.
 */
const READY_MS = 10_000;
const PREFIX = "combo";

let postgres: PrivatePostgres | undefined;
let redis: PrivateRedis | undefined;
let cluster: Cluster | undefined;
let seeded: Seeded;
/** Clients whose last name the load edits over and over: c_id → email. */
const editTargets = new Map<number, string>();

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  redis = await startPrivateRedis();
  cluster = await startCluster({
    databaseServer: postgres.url,
    env: { REDIS_URL: redis.url, EMBED_RATE_LIMIT_PER_MINUTE: "100000" },
  });
  seeded = await seedPortal(cluster.publicUrl, PREFIX);
  for (let i = 0; i < 4; i++) {
    const body = addClientBody(PREFIX, `edit${i}`, seeded.workbook.id);
    const res = await seeded.admin.call("POST", "/api/admin/addclient", body);
    if (res.status !== 201) throw new Error(`addclient ${res.status}: ${await res.text()}`);
    editTargets.set(
      ((await res.json()) as { data: { client: { c_id: number } } }).data.client.c_id,
      body.email,
    );
  }
}, 120_000);

afterAll(async () => {
  // Running again if a failure left them stopped, so every clean-up can reach them.
  cluster?.biStart();
  if (postgres && !postgres.running) await postgres.start().catch(() => undefined);
  await cluster?.close().catch((error: unknown) => console.warn(`cluster close: ${String(error)}`));
  await redis?.close();
  await postgres?.close();
}, 60_000);

/** The embed token's id (`jti`), which the audit row of an issued embed names. */
function embedJti(json: unknown): string | undefined {
  const url = (json as { embedUrl?: unknown } | null)?.embedUrl;
  const token = typeof url === "string" ? /:jwt=([^&]+)/.exec(url)?.[1] : undefined;
  if (!token) return undefined;
  const payload = decodeURIComponent(token).split(".")[1] ?? "";
  return (JSON.parse(Buffer.from(payload, "base64url").toString()) as { jti?: string }).jti;
}

function embedLane(cookie: string, workbookName: string, jtis: string[]): Lane {
  return {
    next: () => ({
      kind: "embed",
      side: "portal",
      method: "POST",
      path: "/api/sigma/provision-and-embed",
      cookie,
      body: { workbookId: workbookName },
      expect: 200,
      verify: (json) => embedJti(json) !== undefined,
    }),
    settle(answer) {
      const jti = answer.status === 200 ? embedJti(answer.json) : undefined;
      if (jti) jtis.push(jti);
    },
  };
}

/** Edit Client on each target in turn with a new last name; every attempt is kept with its answer. */
function editLane(cookie: string, attempts: Map<number, { lastName: string; answer: Answer }[]>): Lane {
  const ids = [...editTargets.keys()];
  let n = 0;
  return {
    next: () => {
      const cId = ids[n % ids.length]!;
      return {
        kind: "admin-edit",
        side: "portal",
        method: "PUT",
        path: "/api/admin/editclient",
        cookie,
        body: {
          cId,
          clientId: `CL-${PREFIX}EDIT${ids.indexOf(cId)}`.toUpperCase(),
          firstName: "Fault",
          lastName: `Version${n++}`,
          privilege: "View",
        },
        expect: 200,
      };
    },
    settle(answer) {
      const body = answer.body as { cId: number; lastName: string };
      attempts.set(body.cId, [...(attempts.get(body.cId) ?? []), { lastName: body.lastName, answer }]);
    },
  };
}

/**
 * The last names an edited client may have now: its last acknowledged one (or "Added"), or that of any
 * later attempt whose outcome is unknown (no answer, the balancer's 502, a 503: it may have committed).
 */
function possibleLastNames(list: { lastName: string; answer: Answer }[]): string[] {
  const lastAcked = list.findLastIndex((e) => e.answer.status === 200);
  const unknown = (a: Answer) => a.status === 0 || a.balancer || a.status >= 500;
  return [
    lastAcked >= 0 ? list[lastAcked]!.lastName : "Added",
    ...list.slice(lastAcked + 1).flatMap((e) => (unknown(e.answer) ? [e.lastName] : [])),
  ];
}

describe("several faults at once, two instances", () => {
  it(
    "Redis away 30 s, PostgreSQL restarted, the BI service away 60 s, an instance killed: nothing lost, 503 only",
    { timeout: 200_000 },
    async () => {
      const c = cluster!;
      const added: AddedClient[] = [];
      const jtis: string[] = [];
      const edits = new Map<number, { lastName: string; answer: Answer }[]>();
      const everStarted: Instance[] = c.instances.filter((i): i is Instance => i !== undefined);
      const load = startLoad(c.publicUrl, c.publicUrl, [
        signInLane(seeded.signers),
        sessionLane(seeded.clientCookie),
        embedLane(seeded.clientCookie, seeded.workbook.workbook_name, jtis),
        adminListLane(seeded.admin.cookie),
        addClientLane(seeded.admin.cookie, PREFIX, seeded.workbook.id, added),
        editLane(seeded.admin.cookie, edits),
      ]);
      const timeline: string[] = [];
      const mark = (what: string) => {
        const at = Date.now();
        timeline.push(`${clock(at)} ${what}`);
        return at;
      };
      const kill = { from: 0, to: 0 };
      let lastFaultEnded = 0;
      const readyAfter: string[] = [];

      try {
        await waitFor(
          async () =>
            new Set(load.answers.filter((a) => a.status === a.expect).map((a) => a.kind)).size === 6,
          30_000,
          "every kind answered once before the faults",
        );
        const t0 = Date.now();
        const at = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, t0 + ms - Date.now())));
        const steps = await Promise.allSettled([
          (async () => {
            await at(1_000);
            await redis!.stop();
            mark("Redis stopped");
            await at(31_000);
            await redis!.start();
            return mark("Redis started");
          })(),
          (async () => {
            await at(0);
            c.biStop();
            mark("BI service stopped");
            await at(60_000);
            c.biStart();
            return mark("BI service started");
          })(),
          (async () => {
            await at(6_000);
            mark("PostgreSQL restart -m fast");
            await postgres!.restart();
            return mark("PostgreSQL back");
          })(),
          (async () => {
            await at(12_000);
            kill.from = mark("instance-1 SIGKILL");
            await c.stopInstance(1, "SIGKILL");
            kill.to = mark("instance-1 gone");
            await at(15_000);
            everStarted.push(await c.startInstance(1));
            return mark("instance-1 started again and ready");
          })(),
        ]);
        const failed = steps.find((s) => s.status === "rejected");
        if (failed) throw failed.reason;
        lastFaultEnded = Math.max(...steps.map((s) => (s.status === "fulfilled" ? s.value : 0)));

        // Both instances ready (not degraded) within 10 s of the last fault's end.
        const ready = await Promise.all(
          c.instances.map(async (instance) => {
            const state = { status: 0, body: "" };
            const readyAt = await waitFor(
              async () => {
                Object.assign(state, await readiness(instance!));
                return state.status === 200 && state.body.includes('"ready"');
              },
              READY_MS - (Date.now() - lastFaultEnded),
              `${instance!.name} ready`,
            ).catch(() => undefined);
            return readyAt === undefined
              ? `${instance!.name} not ready 10 s after the last fault: ${state.status} ${state.body}`
              : `${instance!.name} ready`;
          }),
        );
        readyAfter.push(...ready);
      } finally {
        await load.stop();
        const ids = failedRequestIds(load.answers);
        console.info(
          [
            "Several faults at once:",
            ...timeline.map((t) => `  ${t}`),
            summary(load.answers),
            `  acknowledged: Add Client ${added.length}, embeds ${jtis.length}, ` +
              `edits ${[...edits.values()].flat().filter((e) => e.answer.status === 200).length}`,
            ...readyAfter.map((r) => `  ${r}`),
            ...(ids.length > 0 || readyAfter.some((r) => !r.endsWith(" ready"))
              ? ["instances' error lines:", ...instanceErrors(everStarted, ids)]
              : []),
            ...crashReport(everStarted),
          ].join("\n"),
        );
      }

      // No instance died of a fault: only the killed one's first process is gone.
      const state = (i: Instance) => `${i.name} ${i.child.exitCode ?? i.child.signalCode ?? "running"}`;
      expect(everStarted.map(state)).toEqual([
        "instance-0 running",
        "instance-1 SIGKILL",
        "instance-1 running",
      ]);

      expect(readyAfter).toEqual(["instance-0 ready", "instance-1 ready"]);
      expect(loadProblems(load.answers)).toEqual({
        serverErrorsOtherThan503: [],
        malformed503s: [],
        wrongAnswers: [],
        noAnswer: [],
      });
      // The balancer's own 502 only for requests the kill cut off: sent before the instance was gone.
      const cutOff = load.answers.filter((a) => a.balancer);
      expect(
        cutOff
          .filter((a) => a.sentAt > kill.to || a.answeredAt < kill.from)
          .map((a) => `${clock(a.sentAt)} ${a.kind} → ${a.status}`),
      ).toEqual([]);

      await verifyAfterwards(c, { added, jtis, edits });
    },
  );
});

/** What must hold once the faults are over: nothing acknowledged lost, every change delivered, the chain. */
async function verifyAfterwards(
  c: Cluster,
  acked: { added: AddedClient[]; jtis: string[]; edits: Map<number, { lastName: string; answer: Answer }[]> },
) {
  const db = new pg.Pool({ connectionString: c.databaseUrl, max: 2 });
  const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    (await db.query<T>(text, values)).rows;
  try {
    // The outbox drains, and no change failed for good.
    await waitFor(
      async () =>
        (await query("select 1 from provisioning_requests where status = 'pending' limit 1")).length === 0,
      60_000,
      "every change delivered to the BI service",
    );
    expect(
      await query("select kind, subject, last_error from provisioning_requests where status <> 'done'"),
    ).toEqual([]);

    // Every acknowledged Add Client: the person, their account and their assigned workbook.
    const emails = acked.added.map((a) => a.email);
    const stored = await query<{ email: string; c_id: number; workbooks: number; account: boolean }>(
      `select c.email, c.c_id,
              (select count(*)::int from client_workbooks cw where cw.c_id = c.c_id) as workbooks,
              exists (select 1 from users u where u.id = c.user_id and u.email = c.email) as account
         from clients c where c.email = any($1)`,
      [emails],
    );
    const found = new Map(stored.map((r) => [r.email, r]));
    expect(
      capped(
        acked.added
          .filter((a) => {
            const row = found.get(a.email);
            return !row || row.c_id !== a.cId || row.workbooks !== 1 || !row.account;
          })
          .map((a) => `${a.email}: ${JSON.stringify(found.get(a.email) ?? "missing")}`),
      ),
      "acknowledged Add Client lost",
    ).toEqual([]);

    // Every acknowledged embed left its audit row.
    const audited = new Set(
      (
        await query<{ jti: string }>(
          "select details->>'jti' as jti from audit_log where action = 'embed.issued'",
        )
      ).map((r) => r.jti),
    );
    expect(
      capped(acked.jtis.filter((j) => !audited.has(j))),
      "acknowledged embeds without audit row",
    ).toEqual([]);

    // Every edited client holds its last acknowledged name (or a later one whose answer was lost).
    const names = new Map(
      (
        await query<{ c_id: number; last_name: string }>(
          "select c_id, last_name from clients where c_id = any($1)",
          [[...editTargets.keys()]],
        )
      ).map((r) => [r.c_id, r.last_name]),
    );
    const wrongNames = [...acked.edits].flatMap(([cId, list]) => {
      const possible = possibleLastNames(list);
      return possible.includes(names.get(cId) ?? "")
        ? []
        : [`c_id ${cId}: ${names.get(cId)} not in ${possible}`];
    });
    expect(wrongNames, "acknowledged edits lost").toEqual([]);

    // The BI service has every acknowledged person, and each edited one under the name the portal holds.
    const members = await (await c.biClient()).listMembers({ includeArchived: true });
    const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
    expect(capped(emails.filter((e) => !byEmail.has(e))), "people missing in the BI service").toEqual([]);
    const biNames = [...editTargets].map(([, email]) => `${email} ${byEmail.get(email)?.lastName}`);
    expect(biNames).toEqual([...editTargets].map(([cId, email]) => `${email} ${names.get(cId)}`));

    // The audit chain, written by four processes through every fault, verifies.
    const handle = fromPostgres(c.databaseUrl);
    try {
      const chain = await verifyAuditChain(handle.db, auditChainKey(c.auditKeySecret));
      expect(chain.firstBad).toBeNull();
      expect(chain.ok).toBe(true);
    } finally {
      await handle.close();
    }
  } finally {
    await db.end();
  }
}
