import { startRegistration } from "@simplewebauthn/browser";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import * as z from "zod/mini";

import { textProblem } from "@portal/contracts";

import { authClient } from "./auth-client";
import { browserRefusal, passkeyRefusal, requireWebAuthn } from "./passkey-ceremony";

// Adding a passkey (issue 24): the profile's Passkeys card and the enrolment screen, never the sign-in page,
// which loads only `passkey-ceremony.ts`.

/**
 * Adds a passkey to the signed-in person's account: the server's options, the browser's prompt (create it,
 * confirm with a PIN or biometric), then the server's check, which stores it under `name`.
 */
export async function addPasskey(name: string): Promise<void> {
  requireWebAuthn();
  const options = await authClient.$fetch<PublicKeyCredentialCreationOptionsJSON>(
    "/passkey/generate-register-options",
    { method: "GET", query: { name } },
  );
  if (options.error) throw passkeyRefusal(options.error, "add");
  let response;
  try {
    response = await startRegistration({ optionsJSON: options.data });
  } catch (error) {
    throw browserRefusal(error, "add");
  }
  const verified = await authClient.$fetch("/passkey/verify-registration", {
    method: "POST",
    body: { response, name },
  });
  if (verified.error) throw passkeyRefusal(verified.error, "add");
}

export const PASSKEY_NAME_MAX_LENGTH = 60;

/** The name a person gives a passkey, to tell their passkeys apart ("Work laptop"). */
// The shared text rules (contracts `text.ts`), as `storableTextCheck` applies them: imported from `auth.ts`, that
// one would move the sign-in schemas into a chunk shared with this module, which costs /login's first load.
const storableName = z.check<string>((ctx) => {
  const problem = textProblem(ctx.value, "The name");
  if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
});

export const ZPasskeyNameFormSchema = z.object({
  name: z
    .string()
    .check(
      storableName,
      z.trim(),
      z.minLength(1, "Give the passkey a name, such as Work laptop."),
      z.maxLength(PASSKEY_NAME_MAX_LENGTH, `The name must be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`),
    ),
});
export type TPasskeyNameForm = z.infer<typeof ZPasskeyNameFormSchema>;

const DEVICES: [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android device"],
  [/CrOS/, "Chromebook"],
  [/Macintosh|Mac OS X/, "Mac"],
  [/Windows/, "Windows PC"],
  [/Linux/, "Linux computer"],
];

/** A first name for a new passkey, from the device the browser runs on ("Mac", "iPhone"); the person may change it. */
export function suggestedPasskeyName(userAgent: string): string {
  return DEVICES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? "My passkey";
}
