import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fromPostgres, type DatabaseHandle } from "../src/db/client.ts";
import { delegationEndingMail } from "../src/mail/templates.ts";
import { createTestApp, headersFor, ORIGIN } from "./support/app.ts";
import { createScratchDatabase, createTestDatabase } from "./support/database.ts";
import { freePort } from "./support/net.ts";
import { startSmtpServer } from "./support/smtp.ts";

type App = Awaited<ReturnType<typeof createTestApp>>;

/**
 * One database seen by two portal instances: on PGlite both share the one in-process database; with
 * TEST_DATABASE_URL each has its own connection pool to one scratch database, as two servers would.
 */
async function openDatabaseTwice(): Promise<{
  first: DatabaseHandle;
  second: DatabaseHandle;
  close(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await createTestDatabase();
    return { first: handle, second: handle, close: () => handle.close() };
  }
  const scratch = await createScratchDatabase(serverUrl, "reminders");
  const first = fromPostgres(scratch.url);
  await first.migrate();
  const second = fromPostgres(scratch.url);
  return {
    first,
    second,
    async close() {
      await first.close();
      await second.close();
      await scratch.drop();
    },
  };
}

let databases: Awaited<ReturnType<typeof openDatabaseTwice>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let a: App;
let b: App;
let admin: Record<string, string>;
let n = 0;

// No pass on a timer unless a test asks for one: each pass here is run by the test.
const env = () => ({
  SMTP_URL: smtp.url,
  AUTH_IP_LIMIT_PER_MINUTE: "10000",
  DELEGATION_REMINDER_INTERVAL_SECONDS: "0",
});

beforeAll(async () => {
  databases = await openDatabaseTwice();
  smtp = await startSmtpServer();
  a = await createTestApp(databases.first, env());
  b = await createTestApp(databases.second, env());
  admin = await headersFor(a, "admin");
});
afterAll(async () => {
  await a.app.close();
  await b.app.close();
  await smtp.close();
  await databases.close();
});

const query = async <T>(statement: SQL) =>
  ((await databases.first.db.execute(statement)) as unknown as { rows: T[] }).rows;

/** A client added as an admin does, with a password (so no invitation mail reaches their address). */
async function addClient() {
  n += 1;
  const res = await a.app.inject({
    method: "POST",
    url: "/api/admin/addclient",
    headers: admin,
    payload: {
      clientId: `CL-R${n}`,
      firstName: "Olivia",
      lastName: `Reminded${n}`,
      email: `reminded.client${n}@example.com`,
      password: "tidal-granite-passphrase",
      role: "client",
      privilege: "View",
      workbookIds: [],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.client as { c_id: number; email: string };
}

/**
 * A delegation of a new client to a new delegate account, written as rows (the invitation flow is not what is
 * tested here). `ends`: an SQL interval from now, or null for no end date.
 */
async function delegation(ends: string | null, extra: { accepted?: boolean; reminded?: boolean } = {}) {
  const client = await addClient();
  const userId = randomUUID();
  const email = `delegate.${userId.slice(0, 8)}@example.com`;
  await query(sql`
    insert into users (id, name, email, email_verified, role) values (${userId}, 'Daniel Reyes', ${email}, true, 'delegate')`);
  const [row] = await query<{ id: number; expires_at: string | null }>(sql`
    insert into delegations (c_id, user_id, email, name, expires_at, accepted_at, reminder_sent_at)
    values (${client.c_id}, ${userId}, ${email}, 'Daniel Reyes',
            ${ends === null ? null : sql`now() + ${ends}::interval`},
            ${extra.accepted ? sql`now()` : null}, ${extra.reminded ? sql`now() - interval '1 day'` : null})
    returning id, to_json(expires_at) #>> '{}' as expires_at`);
  return {
    id: row!.id,
    client,
    delegateEmail: email,
    expiresAt: row!.expires_at === null ? null : new Date(row!.expires_at),
  };
}

const reminderOf = async (id: number) =>
  (
    await query<{ reminded: boolean }>(
      sql`select reminder_sent_at is not null as reminded from delegations where id = ${id}`,
    )
  )[0]!.reminded;

const mailsTo = (email: string) => smtp.received.filter((m) => m.to === email.toLowerCase());

const day = (date: Date) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(date);

describe("the end-date reminder mail", () => {
  it("names the delegate and the day, links to the profile and wears the firm's branding", () => {
    const mail = delegationEndingMail({
      name: "Olivia",
      delegateName: "Daniel <Reyes>",
      endsAt: new Date("2027-03-12T23:59:59.999Z"),
      url: "https://portal.example/profile",
      firm: { firmName: "Harbour & Co", primaryColour: "#0a5c36", supportEmail: "help@harbour.example" },
    });
    expect(mail.subject).toBe("Daniel <Reyes>'s access to your workbooks ends on 12 March 2027");
    expect(mail.text).toContain(
      "Hello Olivia,\n\nDaniel <Reyes>'s access to your workbooks ends on 12 March 2027.",
    );
    expect(mail.text).toContain("\nhttps://portal.example/profile\n");
    expect(mail.text).toContain("Harbour & Co client portal");
    expect(mail.html).toContain(
      "Daniel &#60;Reyes&#62;&#39;s access to your workbooks ends on 12 March 2027.",
    );
    expect(mail.html).not.toContain("<Reyes>");
    expect(mail.html).toContain('href="https://portal.example/profile"');
    expect(mail.html).toContain("background:#0a5c36");
    expect(mail.html).toContain("Harbour &#38; Co");
  });
});

describe("delegation end-date reminders", () => {
  it("mails the client once, a week before the end, with an audit row", async () => {
    const due = await delegation("3 days");
    expect(await a.delegationReminders.runOnce()).toEqual({ sent: 1, failed: 0 });

    const mail = await smtp.nextMailTo(due.client.email);
    const ends = day(due.expiresAt!);
    expect(mail.subject).toBe(`Daniel Reyes's access to your workbooks ends on ${ends}`);
    expect(mail.text).toContain(`Daniel Reyes's access to your workbooks ends on ${ends}.`);
    expect(mail.text).toContain(`${ORIGIN}/profile`);
    expect(mail.html).toContain(`href="${ORIGIN}/profile"`);
    expect(mail.html).toContain("Meridian Tax &#38; Wealth");
    expect(mailsTo(due.delegateEmail)).toEqual([]);
    expect(await reminderOf(due.id)).toBe(true);

    const audits = await query<Record<string, unknown>>(sql`
      select actor_user_id, actor_email, outcome, target_type, target_id, details from audit_log
       where action = 'delegate.reminder_sent'`);
    expect(audits).toEqual([
      {
        actor_user_id: null,
        actor_email: null,
        outcome: "success",
        target_type: "client",
        target_id: String(due.client.c_id),
        details: {
          delegationId: due.id,
          delegateEmail: due.delegateEmail,
          endsAt: due.expiresAt!.toISOString(),
        },
      },
    ]);
    // The client's trail on /admin/audit shows it.
    const trail = await a.app.inject({
      method: "GET",
      url: `/api/admin/audit?person=${encodeURIComponent(due.client.email)}&action=delegate.reminder_sent`,
      headers: admin,
    });
    expect(trail.statusCode).toBe(200);
    expect(trail.json()).toEqual([expect.objectContaining({ action: "delegate.reminder_sent" })]);

    // The next pass, on either instance, sends nothing again.
    expect(await a.delegationReminders.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(await b.delegationReminders.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(mailsTo(due.client.email)).toEqual([]);
  });

  it("reminds of accepted and pending delegations alike, up to seven days ahead", async () => {
    const accepted = await delegation("6 days 23 hours", { accepted: true });
    const pending = await delegation("2 hours");
    expect(await a.delegationReminders.runOnce()).toEqual({ sent: 2, failed: 0 });
    for (const d of [accepted, pending]) {
      expect((await smtp.nextMailTo(d.client.email)).subject).toContain("Daniel Reyes's access");
      expect(await reminderOf(d.id)).toBe(true);
    }
  });

  it("leaves alone a delegation without end date, ending later than a week, already ended or already reminded", async () => {
    const cases = [
      await delegation(null),
      await delegation("7 days 1 hour"),
      await delegation("30 days"),
      await delegation("-1 minute"),
      await delegation("-3 days", { accepted: true }),
    ];
    const reminded = await delegation("2 days", { reminded: true });
    const audits = async () =>
      (
        await query<{ n: number }>(
          sql`select count(*)::int as n from audit_log where action = 'delegate.reminder_sent'`,
        )
      )[0]!.n;
    const before = await audits();
    expect(await a.delegationReminders.runOnce()).toEqual({ sent: 0, failed: 0 });
    expect(await b.delegationReminders.runOnce()).toEqual({ sent: 0, failed: 0 });
    for (const d of cases) {
      expect(await reminderOf(d.id)).toBe(false);
      expect(mailsTo(d.client.email)).toEqual([]);
    }
    expect(mailsTo(reminded.client.email)).toEqual([]);
    expect(await audits()).toBe(before);
  });

  it("sends each reminder once when two instances run their passes at the same time", async () => {
    const due = [];
    for (let i = 0; i < 12; i += 1) due.push(await delegation(`${i + 1} hours`));
    const passes = await Promise.all([
      a.delegationReminders.runOnce(),
      b.delegationReminders.runOnce(),
      a.delegationReminders.runOnce(),
      b.delegationReminders.runOnce(),
    ]);
    expect(passes.reduce((sum, pass) => sum + pass.sent, 0)).toBe(12);
    expect(passes.every((pass) => pass.failed === 0)).toBe(true);
    for (const d of due) {
      expect(mailsTo(d.client.email)).toHaveLength(1);
      expect(await reminderOf(d.id)).toBe(true);
    }
    const audited = await query<{ target_id: string }>(sql`
      select target_id from audit_log where action = 'delegate.reminder_sent'
         and target_id = any(${sql.param(due.map((d) => String(d.client.c_id)))}::text[])`);
    expect(audited.map((row) => row.target_id).sort()).toEqual(due.map((d) => String(d.client.c_id)).sort());
    for (const d of due) await smtp.nextMailTo(d.client.email);
  });

  it("keeps a reminder the mail server refused for the next pass, and audits only the one sent", async () => {
    const due = await delegation("4 days");
    // An instance whose mail server is not there: nothing listens on that port.
    const broken = await createTestApp(databases.first, {
      ...env(),
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
    });
    try {
      expect(await broken.delegationReminders.runOnce()).toEqual({ sent: 0, failed: 1 });
    } finally {
      await broken.app.close();
    }
    expect(await reminderOf(due.id)).toBe(false);
    expect(
      await query(
        sql`select id from audit_log where action = 'delegate.reminder_sent' and target_id = ${String(due.client.c_id)}`,
      ),
    ).toEqual([]);

    expect(await b.delegationReminders.runOnce()).toEqual({ sent: 1, failed: 0 });
    expect((await smtp.nextMailTo(due.client.email)).subject).toContain("Daniel Reyes's access");
    expect(await reminderOf(due.id)).toBe(true);
  });

  it("runs on its own every DELEGATION_REMINDER_INTERVAL_SECONDS once the app has started", async () => {
    const due = await delegation("5 days");
    const timed = await createTestApp(databases.second, {
      ...env(),
      DELEGATION_REMINDER_INTERVAL_SECONDS: "1",
    });
    try {
      const mail = await smtp.nextMailTo(due.client.email, 15_000);
      expect(mail.subject).toContain("Daniel Reyes's access");
      await expect.poll(() => reminderOf(due.id)).toBe(true);
    } finally {
      await timed.app.close();
    }
  });
});
