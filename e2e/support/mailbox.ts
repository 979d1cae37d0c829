import { existsSync, readFileSync } from "node:fs";
import { expect } from "@playwright/test";

import { mailFile } from "./env.ts";
import type { TReceivedMail } from "./env.ts";

function mailsTo(address: string): TReceivedMail[] {
  const file = mailFile(address);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TReceivedMail);
}

/** Waits (polling, no fixed sleep) until `address` has received `count` mails; returns the newest. */
export async function waitForMail(address: string, count = 1): Promise<TReceivedMail> {
  await expect
    .poll(() => mailsTo(address).length, { message: `mail number ${count} to ${address}`, timeout: 15_000 })
    .toBeGreaterThanOrEqual(count);
  return mailsTo(address).at(-1)!;
}

/** The password reset link in a reset mail. */
export function resetLinkIn(mail: TReceivedMail): string {
  const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/reset-password\/\S+/)?.[0];
  if (!link) throw new Error(`No reset link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** The confirmation link in the mail a new self-registered account receives. */
export function confirmLinkIn(mail: TReceivedMail): string {
  const link = mail.text.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0];
  if (!link) throw new Error(`No confirmation link in the mail "${mail.subject}":\n${mail.text}`);
  return link;
}
