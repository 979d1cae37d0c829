import { appendFileSync, mkdirSync } from "node:fs";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

import { E2E_SMTP_PORT, mailDir, mailFile } from "./support/env.ts";
import type { TReceivedMail } from "./support/env.ts";

/**
 * A real SMTP server on loopback for the portal's mails (password reset). Each mail is appended to a
 * file per recipient, which the tests read (see support/mailbox.ts). Returns the teardown.
 */
export default async function globalSetup() {
  mkdirSync(mailDir(), { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          for (const recipient of session.envelope.rcptTo) {
            const received: TReceivedMail = {
              to: recipient.address.toLowerCase(),
              subject: mail.subject ?? "",
              text: mail.text ?? "",
              html: typeof mail.html === "string" ? mail.html : "",
              receivedAt: new Date().toISOString(),
            };
            appendFileSync(mailFile(received.to), `${JSON.stringify(received)}\n`);
          }
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(E2E_SMTP_PORT, "127.0.0.1", () => resolve());
  });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
