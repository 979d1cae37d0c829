import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPrivatePostgres, type PrivatePostgres } from "../support/private-postgres.ts";
import { startCluster, type Cluster, type Instance } from "./cluster.ts";
import {
  addClientLane,
  adminListLane,
  myWorkbooksLane,
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
  send,
  startLoad,
  summary,
  waitFor,
  type Answer,
} from "./fault-load.ts";

/**
 * The operator issue's acceptance: PostgreSQL restarted under requests, through the portal's routes and
 * Better Auth's (session lookups included), is answered 503 with Retry-After and the portal's error body,
 * never another 5xx; within 10 s of its return every kind of request succeeds again and /readyz is 200.
 * The server is the test's own (support/private-postgres.ts): the shared one is never stopped.
 */
const RECOVERY_MS = 10_000;
const STOP_MS = 5_000;

let postgres: PrivatePostgres | undefined;
let cluster: Cluster | undefined;
let seeded: Seeded;

beforeAll(async () => {
  postgres = await startPrivatePostgres();
  cluster = await startCluster({ databaseServer: postgres.url });
  seeded = await seedPortal(cluster.publicUrl, "restart");
}, 120_000);

afterAll(async () => {
  // Started again if a failure left it stopped, so the cluster's own clean-up can reach it.
  if (postgres && !postgres.running) await postgres.start().catch(() => undefined);
  await cluster?.close().catch((error: unknown) => console.warn(`cluster close: ${String(error)}`));
  await postgres?.close();
}, 60_000);

/** The load's answers to requests sent from `from` on, per kind. */
const sentFrom = (answers: Answer[], from: number) => answers.filter((a) => a.sentAt >= from);

describe("PostgreSQL restarted under requests", () => {
  it(
    "answers 503 with Retry-After, never another 5xx, and everything works again within 10 s",
    { timeout: 150_000 },
    async () => {
      const c = cluster!;
      const pg = postgres!;
      const instances = c.instances.filter((i): i is Instance => i !== undefined);
      const added: AddedClient[] = [];
      const load = startLoad(c.publicUrl, c.publicUrl, [
        myWorkbooksLane(seeded.clientCookie),
        adminListLane(seeded.admin.cookie),
        addClientLane(seeded.admin.cookie, "restart", seeded.workbook.id, added),
        sessionLane(seeded.clientCookie),
        signInLane(seeded.signers),
      ]);
      const kinds = ["me-workbooks", "admin-list", "admin-add", "get-session", "sign-in"];
      const timeline: string[] = [];
      const recovery: string[] = [];

      /** After PostgreSQL is back at `back`: /readyz 200 on both within 10 s, and every kind succeeds. */
      const recovered = async (phase: string, back: number) => {
        for (const instance of c.instances) {
          await waitFor(
            async () => (await readiness(instance!)).status === 200,
            RECOVERY_MS - (Date.now() - back),
            `${phase}: ${instance!.name} /readyz 200`,
          ).catch((error: unknown) => recovery.push(String(error)));
        }
        // Every request sent from 10 s after its return on succeeds, and each kind has sent some.
        const settled = back + RECOVERY_MS;
        await waitFor(
          async () => kinds.every((k) => sentFrom(load.answers, settled).some((a) => a.kind === k)),
          20_000,
          `${phase}: an answer of every kind sent 10 s after the return`,
        ).catch((error: unknown) => recovery.push(String(error)));
        for (const a of sentFrom(load.answers, settled)) {
          if (a.status !== a.expect || (a.verify && !a.verify(a.json))) {
            recovery.push(`${phase}: ${clock(a.sentAt)} ${a.kind} → ${a.status} ${a.text.slice(0, 200)}`);
          }
        }
      };

      let stopped = 0;
      let started = 0;
      try {
        await waitFor(
          async () => kinds.every((k) => load.answers.some((a) => a.kind === k && a.status === a.expect)),
          30_000,
          "every kind answered once before the faults",
        );

        // (a) pg_ctl restart -m fast: sessions ended, the server down for a moment.
        timeline.push(`${clock(Date.now())} restart -m fast`);
        await pg.restart();
        const restarted = Date.now();
        timeline.push(`${clock(restarted)} back`);
        await recovered("restart", restarted);

        // (b) stopped for five seconds, then started.
        timeline.push(`${clock(Date.now())} stop -m fast`);
        await pg.stop("fast");
        stopped = Date.now();
        timeline.push(`${clock(stopped)} stopped`);
        await new Promise((r) => setTimeout(r, STOP_MS));
        await pg.start();
        started = Date.now();
        timeline.push(`${clock(started)} started`);
        await recovered("stop", started);
      } finally {
        await load.stop();
        const ids = failedRequestIds(load.answers);
        console.info(
          [
            "PostgreSQL restart under load:",
            ...timeline.map((t) => `  ${t}`),
            summary(load.answers),
            `  acknowledged Add Client: ${added.length}`,
            ...(ids.length > 0 || recovery.length > 0
              ? ["instances' error lines:", ...instanceErrors(instances, ids)]
              : []),
            ...crashReport(instances),
          ].join("\n"),
        );
      }

      // No instance dropped a request or died (the balancer's own 502 says an instance did not answer).
      expect(instances.map((i) => `${i.name} ${i.child.exitCode ?? "running"}`)).toEqual([
        "instance-0 running",
        "instance-1 running",
      ]);
      expect(load.answers.filter((a) => a.balancer).map((a) => `${a.kind} ${clock(a.sentAt)}`)).toEqual([]);
      expect({ ...loadProblems(load.answers), recovery: capped(recovery) }).toEqual({
        serverErrorsOtherThan503: [],
        malformed503s: [],
        wrongAnswers: [],
        noAnswer: [],
        recovery: [],
      });

      // While it was stopped, both sides answered 503: the fault was seen, and seen as one.
      const whileStopped = load.answers.filter((a) => a.sentAt >= stopped && a.answeredAt <= started);
      const unavailable = (side: string) => whileStopped.filter((a) => a.side === side && a.status === 503);
      expect(unavailable("portal").length, "a portal route answered 503 while stopped").toBeGreaterThan(0);
      expect(unavailable("auth").length, "a Better Auth route answered 503 while stopped").toBeGreaterThan(0);

      // After both faults, one more of each kind.
      const after = await Promise.all(
        [
          myWorkbooksLane(seeded.clientCookie),
          adminListLane(seeded.admin.cookie),
          sessionLane(seeded.clientCookie),
          signInLane(seeded.signers),
        ].map((lane) => send(c.publicUrl, c.publicUrl, lane.next())),
      );
      expect(after.map((a) => `${a.kind} ${a.status}`)).toEqual(after.map((a) => `${a.kind} ${a.expect}`));
    },
  );
});
