import { sql } from "drizzle-orm";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { recordAudit } from "../audit/audit.ts";
import type { BrandingStore } from "../branding/store.ts";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { rows } from "../db/rows.ts";
import type { Mailer } from "../mail/mailer.ts";
import { delegationEndingMail, type MailFirm } from "../mail/templates.ts";

/** How long before a delegation's end date its client is reminded. */
export const REMINDER_DAYS = 7;
/** Reminders claimed per statement. */
const BATCH = 50;
/** The first pass after start, unless the interval is shorter: a restart does not wait a whole interval. */
const FIRST_PASS_MS = 10_000;

export interface DelegationReminderOptions {
  db: Database;
  mailer: Mailer;
  /** PUBLIC_URL: the mail links to its /profile. */
  publicUrl: string;
  mailFirm: () => Promise<MailFirm>;
  log?: Pick<FastifyBaseLogger, "error" | "info">;
}

interface Claimed {
  id: number;
  c_id: number;
  delegate_name: string;
  delegate_email: string;
  expires_ms: number;
  /** reminder_sent_at as this claim set it (text, so a give-back matches it to the microsecond). */
  claimed_at: string;
  client_email: string;
  first_name: string;
}

/**
 * Marks up to a batch of due reminders as sent and returns them, in one statement: a delegation whose end date
 * is within a week and still ahead (accepted or not) and whose client has not been reminded. `skip locked`:
 * several instances claim at once and each row goes to one of them.
 */
async function claim(db: Database): Promise<Claimed[]> {
  return rows<Claimed>(
    await db.execute(sql`
      with claimed as (
        update delegations d set reminder_sent_at = now()
         where d.reminder_sent_at is null
           and d.id in (select id from delegations
                         where reminder_sent_at is null and expires_at > now()
                           and expires_at <= now() + ${REMINDER_DAYS} * interval '1 day'
                         order by expires_at, id
                         limit ${BATCH}
                         for update skip locked)
        returning d.id, d.c_id, d.name, d.email, d.expires_at, d.reminder_sent_at)
      select k.id, k.c_id, k.name as delegate_name, k.email as delegate_email,
             (extract(epoch from k.expires_at) * 1000)::float8 as expires_ms,
             k.reminder_sent_at::text as claimed_at, c.email as client_email, c.first_name
        from claimed k join clients c on c.c_id = k.c_id
       order by k.expires_at, k.id`),
  );
}

/** Gives a claim back (its mail was not sent), unless the delegation changed since: the next pass retries it. */
async function giveBack(db: Database, reminder: Claimed) {
  await db.execute(sql`
    update delegations set reminder_sent_at = null
     where id = ${reminder.id} and reminder_sent_at = ${reminder.claimed_at}::timestamptz`);
}

async function send(options: DelegationReminderOptions, reminder: Claimed): Promise<boolean> {
  try {
    await options.mailer.send({
      to: reminder.client_email,
      ...delegationEndingMail({
        name: reminder.first_name,
        delegateName: reminder.delegate_name,
        endsAt: new Date(reminder.expires_ms),
        url: `${options.publicUrl}/profile`,
        firm: await options.mailFirm(),
      }),
    });
    return true;
  } catch (error) {
    options.log?.error(
      { err: error, delegationId: reminder.id },
      "delegation reminder not sent; retried later",
    );
    return false;
  }
}

/**
 * One pass: every due reminder is claimed, mailed and audited. Mail cannot be part of a transaction, so one
 * of "never lost" and "never twice" has to give way when the process dies at the wrong moment; a second mail
 * about the same end date is the worse of the two, so: the claim marks the row as sent and commits first (no
 * other pass or instance takes it after that), and the mail goes out after. A send the mail server refuses
 * gives the claim back, so a later pass tries again until the end date passes; only a process that dies
 * between the claim and the send loses that one reminder. (Sending first and marking after would turn the same
 * crash into a second mail from the next pass.) The audit row follows the mail it records.
 */
export async function sendDueReminders(
  options: DelegationReminderOptions,
  stopping: () => boolean = () => false,
): Promise<{ sent: number; failed: number }> {
  const { db } = options;
  let sent = 0;
  // Claimed and not sent (refused, or not reached when stopping or on an error): given back at the end, so
  // this pass does not claim a refused one again at once and another instance can take the rest.
  const unsent = new Set<Claimed>();
  let failed = 0;
  try {
    for (let batch = await claim(db); batch.length > 0; batch = stopping() ? [] : await claim(db)) {
      for (const reminder of batch) unsent.add(reminder);
      for (const reminder of batch) {
        if (stopping()) break;
        if (!(await send(options, reminder))) {
          failed += 1;
          continue;
        }
        unsent.delete(reminder);
        sent += 1;
        await audit(options, reminder);
      }
    }
  } finally {
    for (const reminder of unsent) {
      await giveBack(db, reminder).catch((error: unknown) =>
        options.log?.error({ err: error, delegationId: reminder.id }, "delegation reminder not given back"),
      );
    }
    if (sent + failed > 0) options.log?.info({ sent, failed }, "delegation end-date reminders");
  }
  return { sent, failed };
}

/** The trail of a mailed reminder, found under the client (`/admin/audit`'s person filter). */
async function audit(options: DelegationReminderOptions, reminder: Claimed) {
  try {
    await recordAudit(options.db, {
      action: "delegate.reminder_sent",
      outcome: "success",
      targetType: "client",
      targetId: String(reminder.c_id),
      details: {
        delegationId: reminder.id,
        delegateEmail: reminder.delegate_email,
        endsAt: new Date(reminder.expires_ms).toISOString(),
      },
    });
  } catch (error) {
    // The mail is out and the row marked: the pass goes on, the missing row is in the log.
    options.log?.error({ err: error, delegationId: reminder.id }, "delegation reminder sent, not audited");
  }
}

/**
 * Runs `sendDueReminders` every DELEGATION_REMINDER_INTERVAL_SECONDS (0: never, then only `runOnce`) from the
 * app's start until it closes; close waits for the pass in flight. Every instance runs one; the claims keep
 * them apart.
 */
export function useDelegationReminders(
  app: FastifyInstance,
  {
    db,
    mailer,
    config,
    branding,
  }: { db: Database; mailer: Mailer; config: AppConfig; branding: BrandingStore },
) {
  const options: DelegationReminderOptions = {
    db,
    mailer,
    publicUrl: config.publicUrl,
    mailFirm: async () => (await branding.current()).branding,
    log: app.log,
  };
  const intervalMs = config.delegationReminderIntervalMs;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const runOnce = () => {
    const pass = sendDueReminders(options, () => stopped);
    running = Promise.all([running, pass.catch(() => undefined)]);
    return pass;
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => options.log?.error({ err: error }, "delegation reminders failed"))
        .finally(() => {
          if (!stopped) schedule(intervalMs);
        });
    }, delayMs);
    timer.unref();
  };
  app.addHook("onReady", async () => {
    if (intervalMs > 0) schedule(Math.min(FIRST_PASS_MS, intervalMs));
  });
  app.addHook("onClose", async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await running;
  });
  return {
    /** One pass now (tests; the interval's own passes run the same). */
    runOnce,
  };
}

export type DelegationReminders = ReturnType<typeof useDelegationReminders>;
