import type { FastifyBaseLogger } from "fastify";
import type { Mailer } from "../mail/mailer.ts";
import { delegateInvitationMail, invitationMail, type MailFirm } from "../mail/templates.ts";
import type { IssuedInvitation } from "./invitations.ts";

/** Sends invitation emails after the transaction that made the link has committed. */
export interface InvitationMailer {
  /** INVITE_LIFETIME_HOURS, in milliseconds. */
  lifetimeMs: number;
  /** Sends the link; answers false (and logs why) when the mail server refused it, so the admin can resend. */
  send(issued: IssuedInvitation, log: FastifyBaseLogger): Promise<boolean>;
}

export function createInvitationMailer(options: {
  mailer: Mailer;
  publicUrl: string;
  lifetimeMs: number;
  mailFirm: () => Promise<MailFirm>;
}): InvitationMailer {
  return {
    lifetimeMs: options.lifetimeMs,
    async send(issued, log) {
      const url = `${options.publicUrl}/invitation?token=${encodeURIComponent(issued.token)}`;
      try {
        const { firstName: name, client } = issued.person;
        const link = {
          name,
          url,
          expiresAt: new Date(issued.state.expires_at),
          firm: await options.mailFirm(),
        };
        await options.mailer.send({
          to: issued.person.email,
          // A delegate's invitation names the client who sent it (issue 23).
          ...(client ? delegateInvitationMail({ ...link, invitedBy: client.name }) : invitationMail(link)),
        });
        return true;
      } catch (error) {
        log.error({ err: error, to: issued.person.email }, "invitation mail not sent");
        return false;
      }
    },
  };
}
