import { WebAuthnError } from "@simplewebauthn/browser";
import { beforeEach, describe, expect, it, vi } from "vitest";

import { AppRequestError, TOO_MANY_REQUESTS_MESSAGE } from "@/lib/errors";
import {
  ADD_CANCELLED,
  ADD_FAILED,
  ALREADY_ADDED,
  NO_PASSKEYS_AT_IP,
  NO_WEBAUTHN,
  PasskeyCeremonyAborted,
  SIGN_IN_CANCELLED,
  SIGN_IN_FAILED,
  UNKNOWN_PASSKEY,
  browserRefusal,
  passkeyRefusal,
  requestPasskey,
  verifyPasskey,
  webAuthnProblem,
} from "@/lib/passkey-ceremony";
import {
  PASSKEY_NAME_MAX_LENGTH,
  ZPasskeyNameFormSchema,
  addPasskey,
  suggestedPasskeyName,
} from "@/lib/passkey-registration";

// Better Auth's client (it needs a page) and the browser's WebAuthn calls, as the ceremonies see them.
const fakes = vi.hoisted(() => ({
  $fetch: vi.fn(),
  supported: true,
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock("@/lib/auth-client", () => ({ authClient: { $fetch: fakes.$fetch } }));
vi.mock("@simplewebauthn/browser", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  browserSupportsWebAuthn: () => fakes.supported,
  startRegistration: fakes.startRegistration,
  startAuthentication: fakes.startAuthentication,
}));

const notAllowed = () =>
  new WebAuthnError({
    message: "The operation either timed out or was not allowed.",
    code: "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
    cause: Object.assign(new Error("not allowed"), { name: "NotAllowedError" }),
  });
const abortError = () =>
  Object.assign(new Error("Cancelling existing WebAuthn API call"), { name: "AbortError" });

const messageOf = (error: Error) => (error instanceof AppRequestError ? error.message : error.name);

describe("browserRefusal: what the browser's prompt ended with, in words", () => {
  it("a closed prompt (or its time ran out) says nothing was added, or that the sign-in was cancelled", () => {
    expect(messageOf(browserRefusal(notAllowed(), "add"))).toBe(ADD_CANCELLED);
    expect(messageOf(browserRefusal(notAllowed(), "sign-in"))).toBe(SIGN_IN_CANCELLED);
    expect(ADD_CANCELLED).toMatch(/^The passkey was not added: the browser's prompt was closed/);
  });

  it("a ceremony replaced by a newer one (the button over the autofill) is an abort, which shows nothing", () => {
    const replaced = new WebAuthnError({
      message: "Authentication ceremony was sent an abort signal",
      code: "ERROR_CEREMONY_ABORTED",
      cause: abortError(),
    });
    expect(browserRefusal(replaced, "sign-in")).toBeInstanceOf(PasskeyCeremonyAborted);
    expect(browserRefusal(abortError(), "add")).toBeInstanceOf(PasskeyCeremonyAborted);
  });

  it("names the other reasons, and falls back to a plain failure", () => {
    const registered = new WebAuthnError({
      message: "The authenticator was previously registered",
      code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
      cause: new Error("InvalidStateError"),
    });
    expect(messageOf(browserRefusal(registered, "add"))).toBe(ALREADY_ADDED);
    expect(messageOf(browserRefusal(new Error("something else"), "add"))).toBe(ADD_FAILED);
    expect(messageOf(browserRefusal("not an error", "sign-in"))).toBe(SIGN_IN_FAILED);
  });
});

describe("passkeyRefusal: what the server refused, in words", () => {
  it("says the plugin's terse refusals in the portal's words, keeping the code", () => {
    const error = passkeyRefusal(
      { status: 401, code: "PASSKEY_NOT_FOUND", message: "Passkey not found" },
      "sign-in",
    );
    expect(error.message).toBe(UNKNOWN_PASSKEY);
    expect(error.code).toBe("PASSKEY_NOT_FOUND");
    expect(error.status).toBe(401);
  });

  it("shows the portal's own reasons as the server words them", () => {
    const lastOne =
      "This passkey is your only second step, and the firm requires one. Add another passkey or an authenticator app first.";
    expect(passkeyRefusal({ status: 403, code: "LAST_SECOND_STEP", message: lastOne }, "add").message).toBe(
      lastOne,
    );
    const notVerified =
      "This passkey did not confirm it is you (no PIN, fingerprint or face). Use a passkey that does.";
    expect(
      passkeyRefusal({ status: 400, code: "PASSKEY_NOT_VERIFIED", message: notVerified }, "add").message,
    ).toBe(notVerified);
  });

  it("falls back to the ceremony's failure, or the rate limit's text", () => {
    expect(passkeyRefusal({ status: 500 }, "add").message).toBe(ADD_FAILED);
    expect(passkeyRefusal({ status: 429 }, "sign-in").message).toBe(TOO_MANY_REQUESTS_MESSAGE);
  });
});

describe("the ceremonies", () => {
  beforeEach(() => {
    fakes.supported = true;
    fakes.$fetch.mockReset();
    fakes.startRegistration.mockReset();
    fakes.startAuthentication.mockReset();
  });

  it("adds a passkey: the options for its name, the browser's prompt, then the check with the name", async () => {
    const optionsJSON = { challenge: "abc" };
    const response = { id: "cred", response: {} };
    fakes.$fetch
      .mockResolvedValueOnce({ data: optionsJSON, error: null })
      .mockResolvedValueOnce({ data: {}, error: null });
    fakes.startRegistration.mockResolvedValueOnce(response);
    await addPasskey("Work laptop");
    expect(fakes.$fetch.mock.calls).toEqual([
      ["/passkey/generate-register-options", { method: "GET", query: { name: "Work laptop" } }],
      ["/passkey/verify-registration", { method: "POST", body: { response, name: "Work laptop" } }],
    ]);
    expect(fakes.startRegistration).toHaveBeenCalledWith({ optionsJSON });
  });

  it("asks nothing of a browser without WebAuthn", async () => {
    fakes.supported = false;
    await expect(addPasskey("Phone")).rejects.toThrow(NO_WEBAUTHN);
    await expect(requestPasskey({ autofill: false })).rejects.toThrow(NO_WEBAUTHN);
    expect(NO_WEBAUTHN).toBe("This browser cannot use passkeys.");
    expect(fakes.$fetch).not.toHaveBeenCalled();
  });

  it("asks nothing on a page opened by an IP address, which browsers refuse passkeys for", async () => {
    vi.stubGlobal("location", { hostname: "127.0.0.1" });
    try {
      await expect(addPasskey("Phone")).rejects.toThrow(NO_PASSKEYS_AT_IP);
      await expect(requestPasskey({ autofill: false })).rejects.toThrow(NO_PASSKEYS_AT_IP);
      expect(fakes.$fetch).not.toHaveBeenCalled();
      vi.stubGlobal("location", { hostname: "localhost" });
      expect(webAuthnProblem()).toBeNull();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("stops at a closed prompt without sending anything to check", async () => {
    fakes.$fetch.mockResolvedValueOnce({ data: { challenge: "abc" }, error: null });
    fakes.startRegistration.mockRejectedValueOnce(notAllowed());
    await expect(addPasskey("Phone")).rejects.toThrow(ADD_CANCELLED);
    expect(fakes.$fetch).toHaveBeenCalledTimes(1);
  });

  it("signs in in two halves; the autofill's prompt is the email field's suggestions", async () => {
    const optionsJSON = { challenge: "xyz" };
    const response = { id: "cred", response: {} };
    fakes.$fetch.mockResolvedValueOnce({ data: optionsJSON, error: null });
    fakes.startAuthentication.mockResolvedValueOnce(response);
    expect(await requestPasskey({ autofill: true })).toBe(response);
    expect(fakes.startAuthentication).toHaveBeenCalledWith({ optionsJSON, useBrowserAutofill: true });

    fakes.$fetch.mockResolvedValueOnce({
      data: null,
      error: { status: 429, code: "TOO_MANY_FAILED_ATTEMPTS", message: "Too many failed sign-in attempts." },
    });
    await expect(verifyPasskey(response as never)).rejects.toThrow("Too many failed sign-in attempts.");
    expect(fakes.$fetch).toHaveBeenLastCalledWith("/passkey/verify-authentication", {
      method: "POST",
      body: { response },
    });
  });
});

describe("ZPasskeyNameFormSchema", () => {
  const problem = (name: string) => {
    const parsed = ZPasskeyNameFormSchema.safeParse({ name });
    return parsed.success ? parsed.data.name : `! ${parsed.error.issues[0]?.message}`;
  };

  it("trims the name and asks for one", () => {
    expect(problem("  Work laptop ")).toBe("Work laptop");
    expect(problem("   ")).toBe("! Give the passkey a name, such as Work laptop.");
  });

  it("holds it to one line of the storable length", () => {
    expect(problem("x".repeat(PASSKEY_NAME_MAX_LENGTH))).toBe("x".repeat(PASSKEY_NAME_MAX_LENGTH));
    expect(problem("x".repeat(PASSKEY_NAME_MAX_LENGTH + 1))).toBe(
      `! The name must be at most ${PASSKEY_NAME_MAX_LENGTH} characters.`,
    );
    expect(problem("Work\nlaptop")).toBe("! The name must be on one line (no line breaks).");
  });
});

describe("suggestedPasskeyName", () => {
  it("names the device the browser runs on", () => {
    expect(
      suggestedPasskeyName(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148",
      ),
    ).toBe("iPhone");
    expect(
      suggestedPasskeyName("Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 Chrome/131"),
    ).toBe("Android device");
    expect(suggestedPasskeyName("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36")).toBe(
      "Mac",
    );
    expect(suggestedPasskeyName("Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131")).toBe("Windows PC");
    expect(suggestedPasskeyName("curl/8.0")).toBe("My passkey");
  });
});
