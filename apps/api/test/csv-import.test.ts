import { parse } from "csv-parse/sync";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../src/db/client.ts";
import type { IssuedInvitation } from "../src/invitations/invitations.ts";
import type { InvitationMailer } from "../src/invitations/mail.ts";
import { startImportWorker, type ImportWorker } from "../src/import/worker.ts";
import { createTestApp, headersFor } from "./support/app.ts";
import { createTestDatabase } from "./support/database.ts";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
interface Job {
  id: string;
  status: string;
  total: number;
  valid: number;
  invalid: number;
  done: number;
  created: number;
  skipped: number;
  failed: number;
  mapping: Record<string, number>;
  headers: string[];
  problems: { row: number; status: string; reason: string; businessId: string; email: string }[];
}

let database: DatabaseHandle;
let t: TestApp;
let admin: Record<string, string>;
let worker: ImportWorker;
/** Invitation links the workers mailed (D55). */
const mailed: IssuedInvitation[] = [];
const invitations: InvitationMailer = {
  lifetimeMs: 72 * 3_600_000,
  send: async (issued) => {
    mailed.push(issued);
    return true;
  },
};
const PORTFOLIO = "Portfolio-Overview-ImpA1234567890abcdefghij";
const TAX = "Tax-Center-ImpB1234567890abcdefghij";

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db.execute(query)) as unknown as { rows: { n: number }[] };
  return Number(result.rows[0]!.n);
}

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "1000" });
  admin = await headersFor(t, "admin");
  const add = async (name: string, team: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/admin/addworkbook",
      headers: admin,
      payload: { workbook_name: name, team_name: team },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data as { id: number };
  };
  await add(PORTFOLIO, "Portfolio Team");
  await add(TAX, "Tax Team");
  worker = startImportWorker({ db: database.db, batchSize: 7, pollMs: 50, invitations });
});
afterAll(async () => {
  await worker.stop();
  await t.app.close();
  await database.close();
});

function upload(app: TestApp, csv: string | Buffer, kind = "client", headers = admin) {
  return app.app.inject({
    method: "POST",
    url: `/api/admin/imports?kind=${kind}&fileName=people.csv`,
    headers: { ...headers, "content-type": "text/csv" },
    payload: csv,
  });
}

async function waitDone(app: TestApp, jobId: string, timeoutMs = 60_000): Promise<Job> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await app.app.inject({ method: "GET", url: `/api/admin/imports/${jobId}`, headers: admin });
    const job = res.json() as Job;
    if (job.status === "done") return job;
    if (Date.now() > until) throw new Error(`import not done: ${res.body}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function start(app: TestApp, jobId: string) {
  return app.app.inject({
    method: "POST",
    url: `/api/admin/imports/${jobId}/start`,
    headers: admin,
  });
}

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const csvOf = (rows: string[][]) => "\uFEFF" + rows.map((r) => r.map(quote).join(",")).join("\r\n") + "\r\n";

const HEADER = ["Client ID", "First name", "last_name", "E-mail", "Password", "Privilege", "Workbooks"];
function goodRow(n: number, prefix = "CSV"): string[] {
  return [
    `${prefix}-${n}`,
    `Ada${n}`,
    n === 1 ? "Lovelace, Jr." : `Lovelace${n}`,
    `ada.${prefix.toLowerCase()}${n}@example.com`,
    `orchid-lantern-${n}-meadow`,
    n % 2 ? "analyze" : "View",
    n % 3 === 0 ? `Portfolio Overview; ${TAX}` : PORTFOLIO,
  ];
}

describe("CSV import of clients", () => {
  let jobId: string;
  const good = Array.from({ length: 20 }, (_, i) => goodRow(i + 1));
  const bad = [
    ["BAD-1", "Nora", "Email", "", "orchid-lantern-bad-1", "View", ""],
    ["BAD-2", "Pia", "Privilege", "pia.privilege@example.com", "orchid-lantern-bad-2", "Owner", ""],
    [
      "BAD-3",
      "Uma",
      "Workbook",
      "uma.workbook@example.com",
      "orchid-lantern-bad-3",
      "View",
      "No Such Workbook",
    ],
    ["BAD-4", "Dee", "Duplicate", "ada.csv3@example.com", "orchid-lantern-bad-4", "View", ""],
    [
      "BAD-5",
      '=HYPERLINK("http://evil.example","x")',
      "Formula",
      "not-an-email",
      "orchid-lantern-bad-5",
      "View",
      "",
    ],
  ];
  const file = csvOf([HEADER, ...good.slice(0, 10), ...bad, ...good.slice(10)]);

  it("previews 20 good and 5 bad rows with each bad row's problem, creating nobody", async () => {
    const clientsBefore = await count(sql`select count(*)::int as n from clients`);
    const res = await upload(t, file);
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json() as Job;
    jobId = job.id;
    expect(job).toMatchObject({ status: "preview", total: 25, valid: 20, invalid: 5, created: 0, done: 0 });
    expect(job.headers).toEqual(HEADER);
    expect(job.mapping).toEqual({
      clientId: 0,
      firstName: 1,
      lastName: 2,
      email: 3,
      password: 4,
      privilege: 5,
      workbooks: 6,
    });
    const byId = Object.fromEntries(job.problems.map((p) => [p.businessId, p]));
    expect(Object.keys(byId).sort()).toEqual(["BAD-1", "BAD-2", "BAD-3", "BAD-4", "BAD-5"]);
    expect(byId["BAD-1"]!).toMatchObject({ row: 12, status: "invalid", reason: "Email is required." });
    expect(byId["BAD-2"]!.reason).toBe("Privilege must be one of Build, Analyze, Act, View.");
    expect(byId["BAD-3"]!.reason).toBe("Unknown workbook: No Such Workbook.");
    expect(byId["BAD-4"]!.reason).toBe("Email ada.csv3@example.com is also on line 4.");
    expect(byId["BAD-5"]!.reason).toBe("Enter a valid email address.");
    expect(await count(sql`select count(*)::int as n from clients`)).toBe(clientsBefore);
  });

  it("imports the 20 good rows as Add Client does: account, workbooks, one outbox row and an audit row each", async () => {
    const outboxBefore = await count(sql`select count(*)::int as n from provisioning_requests`);
    const started = await start(t, jobId);
    expect(started.statusCode, started.body).toBe(202);
    expect(started.json().status).toBe("queued");
    const job = await waitDone(t, jobId);
    expect(job).toMatchObject({ total: 25, done: 25, created: 20, skipped: 0, failed: 5 });

    const created = (
      (await database.db.execute(sql`
        select c.client_id, c.first_name, c.last_name, c.privilege::text as privilege, u.role,
               array(select w.team_name from client_workbooks cw join workbooks w on w.id = cw.workbook_id
                      where cw.c_id = c.c_id order by w.team_name) as teams
          from clients c join users u on u.id = c.user_id where c.client_id like 'CSV-%' order by c.c_id`)) as unknown as {
        rows: { client_id: string; last_name: string; privilege: string; role: string; teams: string[] }[];
      }
    ).rows;
    expect(created).toHaveLength(20);
    expect(created.find((c) => c.client_id === "CSV-1")).toMatchObject({
      last_name: "Lovelace, Jr.",
      privilege: "Analyze",
    });
    expect(created.find((c) => c.client_id === "CSV-3")!.teams).toEqual(["Portfolio Team", "Tax Team"]);
    expect(created.find((c) => c.client_id === "CSV-2")).toMatchObject({
      privilege: "View",
      role: "client",
      teams: ["Portfolio Team"],
    });

    // Provisioned once each: one member.upsert per person, with the teams of their workbooks.
    const outbox = (
      (await database.db.execute(sql`
        select p.subject, p.kind, p.payload from provisioning_requests p
         where p.subject like 'ada.csv%' order by p.seq`)) as unknown as {
        rows: { subject: string; kind: string; payload: { teams: string[] } }[];
      }
    ).rows;
    expect(outbox).toHaveLength(20);
    expect(new Set(outbox.map((o) => o.subject)).size).toBe(20);
    expect(outbox.every((o) => o.kind === "member.upsert")).toBe(true);
    expect(outbox.find((o) => o.subject === "ada.csv3@example.com")!.payload.teams).toEqual([
      "Portfolio Team",
      "Tax Team",
    ]);
    expect(await count(sql`select count(*)::int as n from provisioning_requests`)).toBe(outboxBefore + 20);

    // The same BI payload as Add Client queues for a client with the same workbooks.
    const ids = (
      (await database.db.execute(
        sql`select id from workbooks where workbook_name in (${PORTFOLIO}, ${TAX}) order by id`,
      )) as unknown as { rows: { id: number }[] }
    ).rows.map((r) => r.id);
    const added = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "ONE-3",
        firstName: "Ada3",
        lastName: "Lovelace3",
        email: "ada.one3@example.com",
        password: "orchid-lantern-3-meadow",
        role: "client",
        privilege: "Analyze",
        workbookIds: ids,
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    const payloads = (
      (await database.db.execute(sql`
        select subject, payload from provisioning_requests
         where subject in ('ada.csv3@example.com', 'ada.one3@example.com') order by subject`)) as unknown as {
        rows: { subject: string; payload: Record<string, unknown> }[];
      }
    ).rows;
    expect({ ...payloads[0]!.payload, email: "x" }).toEqual({ ...payloads[1]!.payload, email: "x" });
    await t.app.inject({
      method: "DELETE",
      url: `/api/admin/deleteclient/${added.json().data.client.c_id}`,
      headers: admin,
    });

    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'client.created' and details->>'importJobId' = ${jobId}`,
      ),
    ).toBe(20);
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'people_import.completed' and target_id = ${jobId}`,
      ),
    ).toBe(1);
    // The passwords supplied are the people's passwords, and are no longer kept with the import.
    const cookie = await t.sessionCookie("ada.csv7@example.com", "orchid-lantern-7-meadow");
    expect(cookie).toContain("=");
    expect(
      await count(
        sql`select count(*)::int as n from import_rows where job_id = ${jobId} and cells->>4 <> ''`,
      ),
    ).toBe(0);
  });

  it("offers the failed rows as CSV, with formula cells neutralised and passwords left out", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: `/api/admin/imports/${jobId}/failed.csv`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="people-failed-rows.csv"');
    const rows = parse(res.body, { bom: true }) as string[][];
    expect(rows[0]).toEqual([...HEADER, "Error"]);
    expect(rows).toHaveLength(6);
    const formula = rows.find((r) => r[0] === "BAD-5")!;
    expect(formula[1]).toBe(`'=HYPERLINK("http://evil.example","x")`);
    expect(rows.slice(1).every((r) => r[4] === "")).toBe(true);
    expect(rows.find((r) => r[0] === "BAD-2")![7]).toBe(
      "Privilege must be one of Build, Analyze, Act, View.",
    );
  });

  it("creates nothing twice when the same file is imported again", async () => {
    const clientsBefore = await count(sql`select count(*)::int as n from clients`);
    const outboxBefore = await count(sql`select count(*)::int as n from provisioning_requests`);
    const res = await upload(t, file);
    const preview = res.json() as Job;
    expect(preview).toMatchObject({ valid: 0, invalid: 5, skipped: 20 });
    expect(preview.problems.find((p) => p.businessId === "CSV-4")!.reason).toBe(
      "Already in the portal (Client ID CSV-4, ada.csv4@example.com).",
    );
    expect((await start(t, preview.id)).statusCode).toBe(202);
    const job = await waitDone(t, preview.id);
    expect(job).toMatchObject({ created: 0, skipped: 20, failed: 5, done: 25 });
    expect(await count(sql`select count(*)::int as n from clients`)).toBe(clientsBefore);
    expect(await count(sql`select count(*)::int as n from provisioning_requests`)).toBe(outboxBefore);
  });

  it("imports the fixed failed rows, ending with all 25 clients", async () => {
    const failed = await t.app.inject({
      method: "GET",
      url: `/api/admin/imports/${jobId}/failed.csv`,
      headers: admin,
    });
    const [header, ...rows] = parse(failed.body, { bom: true }) as string[][];
    const fixed = rows.map((r, i) => {
      const row = r.slice(0, 7);
      row[1] = row[1]!.startsWith("'") ? "Fixed" : row[1]!;
      row[3] = `fixed.${i + 1}@example.com`;
      row[4] = `harbor-quill-${i + 1}-sunrise`;
      row[5] = "View";
      row[6] = "";
      return row;
    });
    const res = await upload(t, csvOf([header!.slice(0, 7), ...fixed]));
    expect(res.json()).toMatchObject({ valid: 5, invalid: 0 });
    await start(t, res.json().id);
    expect(await waitDone(t, res.json().id)).toMatchObject({ created: 5, failed: 0 });
    expect(
      await count(
        sql`select count(*)::int as n from clients where client_id like 'CSV-%' or client_id like 'BAD-%'`,
      ),
    ).toBe(25);
  });

  it("refuses an email or Client ID that belongs to someone else already in the portal", async () => {
    const res = await upload(
      t,
      csvOf([
        HEADER,
        ["CSV-1", "Other", "Person", "someone.new@example.com", "orchid-lantern-x", "View", ""],
        ["NEW-1", "Ada", "Again", "ada.csv2@example.com", "orchid-lantern-y", "View", ""],
      ]),
    );
    const job = res.json() as Job;
    expect(job.invalid).toBe(2);
    expect(job.problems.map((p) => p.reason)).toEqual([
      "Client ID CSV-1 is already in use.",
      "A user with this email already exists.",
    ]);
  });
});

describe("rows without a password", () => {
  it("invite the person as Add Client's invite: true does: no password, a link mailed after the batch commits", async () => {
    const res = await upload(
      t,
      csvOf([
        HEADER,
        ["INV-1", "Ivy", "Invited", "ivy.invited@example.com", "", "View", PORTFOLIO],
        ["INV-2", "Paul", "Password", "paul.password@example.com", "quartz-heron-lantern", "View", ""],
      ]),
    );
    const preview = res.json() as Job;
    expect(preview).toMatchObject({ valid: 2, invalid: 0 });
    await start(t, preview.id);
    expect(await waitDone(t, preview.id)).toMatchObject({ created: 2, failed: 0 });

    expect(mailed.map((m) => m.person.email)).toContain("ivy.invited@example.com");
    expect(mailed.map((m) => m.person.email)).not.toContain("paul.password@example.com");
    expect(
      await count(sql`
        select count(*)::int as n from accounts a join users u on u.id = a.user_id
         where u.email = 'ivy.invited@example.com' and a.password is not null`),
    ).toBe(0);
    expect(
      await count(sql`
        select count(*)::int as n from invitations i join users u on u.id = i.user_id
         where u.email = 'ivy.invited@example.com' and i.accepted_at is null`),
    ).toBe(1);
    const listed = await t.app.inject({ method: "GET", url: "/api/admin/clients?q=INV-1", headers: admin });
    expect(listed.json()[0]).toMatchObject({ client_id: "INV-1", invitation: { status: "pending" } });
    expect(
      await count(sql`
        select count(*)::int as n from audit_log
         where action = 'invitation.sent' and details->>'importJobId' = ${preview.id}`),
    ).toBe(1);
    expect(
      await count(
        sql`select count(*)::int as n from provisioning_requests where subject = 'ivy.invited@example.com'`,
      ),
    ).toBe(1);
  });
});

describe("an address that belongs to a delegate", () => {
  it("is imported as Add Client does: the delegate becomes the client, keeping their password and delegations", async () => {
    const host = await t.app.inject({
      method: "POST",
      url: "/api/admin/addclient",
      headers: admin,
      payload: {
        clientId: "DLG-HOST",
        firstName: "Hannah",
        lastName: "Host",
        email: "hannah.host@example.com",
        password: "copper-meadow-lantern",
        privilege: "View",
        workbookIds: [],
      },
    });
    expect(host.statusCode, host.body).toBe(201);
    const hostId = host.json().data.client.c_id as number;
    // One delegate signs in with their own password; the other was invited and has none yet.
    const signsIn = await t.createUser("delegate", {
      email: "dora.delegate@example.com",
      password: "willow-harbour-keepsake",
      name: "Dora Delegate",
    });
    for (const [email, name] of [
      [signsIn.email, "Dora Delegate"],
      ["rhys.delegate@example.com", "Rhys Delegate"],
    ]) {
      const invited = await t.app.inject({
        method: "POST",
        url: `/api/admin/clients/${hostId}/delegates`,
        headers: admin,
        payload: { email, name },
      });
      expect(invited.statusCode, invited.body).toBe(201);
    }

    const res = await upload(
      t,
      csvOf([
        HEADER,
        ["DLG-1", "Dora", "Delegate", signsIn.email, "firm-chosen-passphrase", "View", PORTFOLIO],
        ["DLG-2", "Rhys", "Delegate", "rhys.delegate@example.com", "", "View", ""],
      ]),
    );
    const preview = res.json() as Job;
    expect(preview, res.body).toMatchObject({ valid: 2, invalid: 0, problems: [] });
    await start(t, preview.id);
    expect(await waitDone(t, preview.id)).toMatchObject({ created: 2, failed: 0 });

    expect(
      await count(sql`
        select count(*)::int as n from users u join clients c on c.user_id = u.id
         where u.email in ('dora.delegate@example.com', 'rhys.delegate@example.com') and u.role = 'client'
           and c.client_id in ('DLG-1', 'DLG-2')`),
    ).toBe(2);
    expect((await t.signIn(signsIn.email, "willow-harbour-keepsake")).statusCode).toBe(200);
    expect((await t.signIn(signsIn.email, "firm-chosen-passphrase")).statusCode).toBe(401);
    // The one without a password is invited to choose one, as any client imported without one.
    expect(mailed.filter((m) => m.person.email === "rhys.delegate@example.com")).toEqual([
      expect.objectContaining({ person: expect.objectContaining({ kind: "client" }) }),
    ]);
    expect(
      await count(sql`
        select count(*)::int as n from delegations
         where c_id = ${hostId} and email in ('dora.delegate@example.com', 'rhys.delegate@example.com')`),
    ).toBe(2);

    // Now a client, the address is taken like any other client's.
    const again = await upload(
      t,
      csvOf([HEADER, ["DLG-3", "Dora", "Again", signsIn.email, "firm-chosen-passphrase", "View", ""]]),
    );
    expect((again.json() as Job).problems.map((p) => p.reason)).toEqual([
      "A user with this email already exists.",
    ]);
  });
});

describe("CSV import of employees", () => {
  it("assigns clients by their Client ID and refuses unknown ones and unknown privileges", async () => {
    const file = csvOf([
      ["Employee ID", "FirstName", "Surname", "Email Address", "Password", "Privilege", "Clients"],
      [
        "EMP-1",
        "Eve",
        "Advisor",
        "eve.advisor@meridian-advisory.example",
        "saffron-kettle-drum",
        "Build",
        "CSV-1; CSV-2",
      ],
      [
        "EMP-2",
        "Max",
        "Unknown",
        "max.unknown@meridian-advisory.example",
        "saffron-kettle-drum",
        "Build",
        "NOPE-9",
      ],
      ["EMP-3", "Ida", "Owner", "ida.owner@meridian-advisory.example", "saffron-kettle-drum", "Owner", ""],
    ]);
    const res = await upload(t, file, "employee");
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json() as Job;
    expect(job).toMatchObject({ valid: 1, invalid: 2 });
    expect(job.problems.map((p) => [p.businessId, p.reason])).toEqual([
      ["EMP-2", "Unknown client: NOPE-9."],
      ["EMP-3", "Privilege must be one of Build, Analyze, Act, View."],
    ]);
    await start(t, job.id);
    expect(await waitDone(t, job.id)).toMatchObject({ created: 1, failed: 2 });
    const list = await t.app.inject({
      method: "GET",
      url: "/api/admin/employees?q=eve.advisor",
      headers: admin,
    });
    expect(
      list
        .json()[0]
        .clients.map((c: { first_name: string }) => c.first_name)
        .sort(),
    ).toEqual(["Ada1", "Ada2"]);
    expect(
      await count(
        sql`select count(*)::int as n from provisioning_requests where subject = 'eve.advisor@meridian-advisory.example'`,
      ),
    ).toBe(1);
  });
});

describe("column mapping", () => {
  it("maps other spellings, takes a changed mapping and will not start without a required field", async () => {
    const res = await upload(
      t,
      "Reference,Given name,Family name,Mail,Initial password,Access level\nMAP-1,Lin,Mapped,lin.mapped@example.com,velvet-compass-rose,Act\n",
    );
    const job = res.json() as Job;
    expect(job.mapping).toEqual({ firstName: 1, lastName: 2, email: 3, password: 4, privilege: 5 });
    expect(job.problems[0]!.reason).toBe("Client ID is required.");
    const refused = await start(t, job.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: "IMPORT_MAPPING",
      error: "Map a column to Client ID first.",
    });
    const twice = await t.app.inject({
      method: "PUT",
      url: `/api/admin/imports/${job.id}/mapping`,
      headers: admin,
      payload: { mapping: { ...job.mapping, clientId: 1 } },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error).toBe("Each column can be mapped to one field only.");
    const remapped = await t.app.inject({
      method: "PUT",
      url: `/api/admin/imports/${job.id}/mapping`,
      headers: admin,
      payload: { mapping: { ...job.mapping, clientId: 0 } },
    });
    expect(remapped.statusCode, remapped.body).toBe(200);
    expect(remapped.json()).toMatchObject({ valid: 1, invalid: 0 });
  });
});

describe("bad files change nothing", () => {
  const state = async () => [
    await count(sql`select count(*)::int as n from import_jobs`),
    await count(sql`select count(*)::int as n from clients`),
    await count(sql`select count(*)::int as n from users`),
  ];
  const latin1 = Buffer.from(
    "Client ID,First name,Last name,Email,Password,Privilege\nL-1,Jürgen,Müller,j@example.com,velvet-compass-rose,View\n",
    "latin1",
  );
  const cases: [
    string,
    () => Promise<ReturnType<typeof upload> extends Promise<infer R> ? R : never>,
    number,
    string,
    RegExp,
  ][] = [
    [
      "a spreadsheet workbook",
      () => upload(t, Buffer.concat([Buffer.from("PK\x03\x04", "latin1"), Buffer.alloc(200, 7)])),
      400,
      "NOT_CSV",
      /\.xlsx.*CSV UTF-8/,
    ],
    [
      "binary data",
      () => upload(t, Buffer.from([0x43, 0x6c, 0x00, 0x01, 0x02, 0xff, 0x10])),
      400,
      "NOT_CSV",
      /binary data/,
    ],
    ["another encoding", () => upload(t, latin1), 400, "FILE_ENCODING", /not UTF-8.*CSV UTF-8/],
    [
      "UTF-16",
      () =>
        upload(t, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Client ID,Email\n", "utf16le")])),
      400,
      "FILE_ENCODING",
      /UTF-16/,
    ],
    [
      "text that is not a people list",
      () => upload(t, "Dear team,\nplease find the figures attached.\n"),
      400,
      "NOT_CSV",
      /No column of this file/,
    ],
    ["an empty file", () => upload(t, ""), 400, "NOT_CSV", /empty/],
    [
      "a broken quote",
      () => upload(t, 'Client ID,Email\n"A-1,a@example.com\n'),
      400,
      "NOT_CSV",
      /could not be read as CSV/,
    ],
    [
      "more than 20 MB",
      () => upload(t, Buffer.alloc(21 * 1024 * 1024, 0x61)),
      413,
      "FILE_TOO_LARGE",
      /larger than 20 MB/,
    ],
    [
      "more than 50,000 rows",
      () => upload(t, "Client ID,Email\n" + "X,x@example.com\n".repeat(50_001)),
      413,
      "TOO_MANY_ROWS",
      /more than 50,000 rows/,
    ],
    [
      "a JSON body",
      () =>
        t.app.inject({
          method: "POST",
          url: "/api/admin/imports?kind=client",
          headers: { ...admin, "content-type": "application/json" },
          payload: "{}",
        }),
      400,
      "NOT_CSV",
      /Content-Type: text\/csv/,
    ],
  ];
  it.each(cases)("refuses %s with a clear message", async (_name, send, status, code, message) => {
    const before = await state();
    const res = await send();
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ code, error: expect.stringMatching(message) });
    expect(await state()).toEqual(before);
  });

  it("answers an unknown import with 404 and a malformed id with 400", async () => {
    const missing = await t.app.inject({
      method: "GET",
      url: `/api/admin/imports/${crypto.randomUUID()}`,
      headers: admin,
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({ method: "GET", url: "/api/admin/imports/not-a-uuid", headers: admin });
    expect(bad.statusCode).toBe(400);
  });
});

describe("an upload that is never started", () => {
  it("is removed with its rows, passwords included, after a day", async () => {
    const res = await upload(t, csvOf([HEADER, goodRow(1, "OLD")]));
    const jobId = (res.json() as Job).id;
    await database.db.execute(
      sql`update import_jobs set created_at = now() - interval '25 hours' where id = ${jobId}`,
    );
    const fresh = (await upload(t, csvOf([HEADER, goodRow(2, "OLD")]))).json() as Job;
    const sweeper = startImportWorker({ db: database.db, pollMs: 20 });
    try {
      await expect
        .poll(async () => count(sql`select count(*)::int as n from import_rows where job_id = ${jobId}`))
        .toBe(0);
      expect(await count(sql`select count(*)::int as n from import_jobs where id = ${jobId}`)).toBe(0);
      expect(await count(sql`select count(*)::int as n from import_jobs where id = ${fresh.id}`)).toBe(1);
    } finally {
      await sweeper.stop();
    }
  });
});

describe("an interrupted import", () => {
  it("continues on a new instance after a restart and after a killed worker's lease ends, creating each person once", async () => {
    const rows = Array.from({ length: 30 }, (_, i) => goodRow(i + 1, "RST"));
    const res = await upload(t, csvOf([HEADER, ...rows]));
    const jobId = (res.json() as Job).id;
    // This instance stops after its first batch of 5, as on a restart.
    await worker.stop();
    let first: ImportWorker | undefined;
    const stopped = new Promise<void>((resolve) => {
      first = startImportWorker({
        db: database.db,
        batchSize: 5,
        pollMs: 20,
        onBatch: () => void first!.stop().then(resolve),
      });
    });
    expect((await start(t, jobId)).statusCode).toBe(202);
    await stopped;
    await t.app.close();
    const progress = await count(
      sql`select count(*)::int as n from import_rows where job_id = ${jobId} and status = 'created'`,
    );
    expect(progress).toBe(5);

    // A new instance on the same database; meanwhile an instance killed mid-job still holds a claim.
    await database.db.execute(sql`
      update import_jobs set lease_owner = 'killed-instance', lease_expires_at = now() + interval '1 second'
       where id = ${jobId}`);
    t = await createTestApp(database, { AUTH_IP_LIMIT_PER_MINUTE: "1000" });
    admin = await headersFor(t, "admin");
    worker = startImportWorker({ db: database.db, batchSize: 7, pollMs: 50, invitations });
    expect(
      (await t.app.inject({ method: "GET", url: `/api/admin/imports/${jobId}`, headers: admin })).json().done,
    ).toBe(5);
    const job = await waitDone(t, jobId);
    expect(job).toMatchObject({ created: 30, skipped: 0, failed: 0, done: 30 });
    expect(await count(sql`select count(*)::int as n from users where email like 'ada.rst%'`)).toBe(30);
    expect(await count(sql`select count(*)::int as n from clients where client_id like 'RST-%'`)).toBe(30);
    expect(
      await count(sql`select count(*)::int as n from provisioning_requests where subject like 'ada.rst%'`),
    ).toBe(30);
    expect(
      await count(
        sql`select count(distinct target_id)::int as n from audit_log where action = 'client.created' and details->>'importJobId' = ${jobId}`,
      ),
    ).toBe(30);
    expect(
      await count(
        sql`select count(*)::int as n from audit_log where action = 'client.created' and details->>'importJobId' = ${jobId}`,
      ),
    ).toBe(30);
  });
});
