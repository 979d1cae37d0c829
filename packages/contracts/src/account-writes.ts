// The account writes Better Auth answers under /api/auth (issue 24, decision 021): the profile's name and the
// passkey endpoints. The API checks each body against these before Better Auth runs (auth/hooks/account-writes.ts),
// so these endpoints obey the same text rules as the portal's own routes.
import { z } from "zod";

import { missing, requestBody, requiredText, storableText } from "./fields.ts";

/** The longest name a person gives their profile or a passkey (the people and delegate forms' limit too). */
export const GIVEN_NAME_MAX_LENGTH = 100;

const blank = (input: unknown) => missing(input) || (typeof input === "string" && input.trim() === "");

/**
 * A name a person types (their profile's, a passkey's): the portal's required-text rule (`requiredText`: text,
 * no control characters or line breaks, trimmed, at most 100 characters), saved trimmed. A blank one is not
 * saved: "Name is required." rather than the back office's "All fields are required.", since it is one field.
 */
const givenName = (label: string) =>
  z
    .unknown()
    .refine((input) => !blank(input), `${label} is required.`)
    .pipe(requiredText(GIVEN_NAME_MAX_LENGTH, label));

/** An optional name: left out, or a name as above (blank is refused, not taken as "none"). */
const optionalGivenName = (label: string) =>
  z
    .unknown()
    .refine((input) => !blank(input), `${label} must not be blank (leave it out to keep the default).`)
    .pipe(requiredText(GIVEN_NAME_MAX_LENGTH, label))
    .optional();

/** POST /api/auth/update-user: the profile changes the name only (the email never changes, spec §5). */
export const ZUpdateUserRequestSchema = requestBody({ name: givenName("Name") });
export type TUpdateUserRequest = z.infer<typeof ZUpdateUserRequestSchema>;

/** Passkey ids are Better Auth's row ids (UUIDs); 255 leaves room and keeps a pasted essay out of the query. */
const passkeyId = z
  .string({ error: (iss) => (missing(iss.input) ? "Passkey id is required." : "Passkey id must be text.") })
  .check(storableText("Passkey id"))
  .min(1, "Passkey id is required.")
  .max(255, "Passkey id must be at most 255 characters.");

/** POST /api/auth/passkey/update-passkey (rename). */
export const ZUpdatePasskeyRequestSchema = requestBody({ id: passkeyId, name: givenName("Passkey name") });
export type TUpdatePasskeyRequest = z.infer<typeof ZUpdatePasskeyRequestSchema>;

/** POST /api/auth/passkey/delete-passkey. */
export const ZDeletePasskeyRequestSchema = requestBody({ id: passkeyId });
export type TDeletePasskeyRequest = z.infer<typeof ZDeletePasskeyRequestSchema>;

// ---- What the browser's authenticator answered (WebAuthn's JSON encoding, as @simplewebauthn/browser sends it) ----

const MALFORMED_RESPONSE = "The passkey's answer is malformed. Try again.";

/**
 * A base64url value of the authenticator's answer. A credential id is at most 1023 bytes (WebAuthn §5.8.3): 1,364
 * characters; the other parts (attestation, signature, client data) stay far below 64 KiB.
 */
const base64url = (max: number) =>
  z
    .string({ error: MALFORMED_RESPONSE })
    .max(max, MALFORMED_RESPONSE)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, MALFORMED_RESPONSE);

const credentialId = base64url(1364);
const publicKeyType = z.literal("public-key", { error: MALFORMED_RESPONSE });
const answer = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.looseObject(shape, { error: MALFORMED_RESPONSE });

/** A new passkey's attestation (`navigator.credentials.create`). */
export const ZPasskeyRegistrationResponseSchema = answer({
  id: credentialId,
  rawId: credentialId,
  type: publicKeyType,
  response: answer({
    clientDataJSON: base64url(65_536),
    attestationObject: base64url(65_536),
    transports: z
      .array(z.string({ error: MALFORMED_RESPONSE }).max(32, MALFORMED_RESPONSE))
      .max(16)
      .optional(),
  }),
});

/** A passkey sign-in's assertion (`navigator.credentials.get`). */
export const ZPasskeyAuthenticationResponseSchema = answer({
  id: credentialId,
  rawId: credentialId,
  type: publicKeyType,
  response: answer({
    clientDataJSON: base64url(65_536),
    authenticatorData: base64url(65_536),
    signature: base64url(65_536),
    userHandle: base64url(1024).optional(),
  }),
});

/** POST /api/auth/passkey/verify-registration: the attestation, and the name the person gave it (optional). */
export const ZVerifyPasskeyRegistrationRequestSchema = requestBody({
  response: ZPasskeyRegistrationResponseSchema,
  name: optionalGivenName("Passkey name"),
});
export type TVerifyPasskeyRegistrationRequest = z.infer<typeof ZVerifyPasskeyRegistrationRequestSchema>;

/** POST /api/auth/passkey/verify-authentication (a passkey sign-in). */
export const ZVerifyPasskeyAuthenticationRequestSchema = requestBody({
  response: ZPasskeyAuthenticationResponseSchema,
});
export type TVerifyPasskeyAuthenticationRequest = z.infer<typeof ZVerifyPasskeyAuthenticationRequestSchema>;
