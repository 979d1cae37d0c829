import type { FastifyBaseLogger } from "fastify";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { SharedStore } from "../lib/redis.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { MailFirm } from "../mail/templates.ts";
import type { AccountLimits } from "./account-limits.ts";

/** What Better Auth is built with (auth.ts). */
export interface AuthDependencies {
  config: AppConfig;
  db: Database;
  mailer: Mailer;
  /** The per-account limits on password guesses and second-step codes (decision 008). */
  limits: { passwords: AccountLimits; codes: AccountLimits };
  /** REDIS_URL: the per-IP limits are counted there, shared by every instance (decision 009). */
  shared?: SharedStore | undefined;
  /** The firm's name and colour for the mail (decision 014); omitted → the demo firm. */
  mailFirm?: () => Promise<MailFirm>;
  /** The portal's logger: Better Auth's own lines go through it (auth-logger.ts); omitted → none. */
  log?: FastifyBaseLogger;
}
