import { onPath, outcomeOf, type Concern } from "./context.ts";

/** What a sign-up answer shows of the account: the same fields for a new and for a taken address. */
const PUBLIC_USER_FIELDS = ["id", "email", "name", "image", "emailVerified", "createdAt", "updatedAt"];

/**
 * No account enumeration through sign-up: Better Auth answers a taken address with a synthetic user
 * (requireEmailVerification), but that user lacks the fields plugins add (the admin plugin's role…), so
 * both answers are cut down to the same public fields. Reset and sign-in already answer alike.
 */
export const enumerationConcern: Concern = {
  after: [
    {
      paths: onPath("/sign-up/email"),
      run: async (ctx) => {
        const { ok, body } = outcomeOf(ctx);
        const user = body.user as Record<string, unknown> | undefined;
        if (!ok || !user) return;
        const shown = Object.fromEntries(PUBLIC_USER_FIELDS.map((field) => [field, user[field] ?? null]));
        return ctx.json({ token: null, user: shown });
      },
    },
  ],
};
