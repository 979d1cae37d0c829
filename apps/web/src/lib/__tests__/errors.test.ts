import { describe, expect, it } from "vitest";

import { AppRequestError, getErrorMessage, TOO_MANY_REQUESTS_MESSAGE, toRequestError } from "../errors";

describe("toRequestError", () => {
  it("keeps a Better Auth error's message, status and code", () => {
    const error = toRequestError(
      { message: "Invalid email or password", status: 401, code: "INVALID_EMAIL_OR_PASSWORD" },
      "fallback",
    );
    expect(error).toBeInstanceOf(AppRequestError);
    expect(error.message).toBe("Invalid email or password");
    expect(error.status).toBe(401);
    expect(error.code).toBe("INVALID_EMAIL_OR_PASSWORD");
  });

  it("has no code where the answer has none (an empty one included)", () => {
    const error = toRequestError({ message: "Refused.", status: 400, code: "" }, "fallback");
    expect(error.message).toBe("Refused.");
    expect(error.code).toBeUndefined();
    expect(toRequestError({ error: "Refused.", status: 400 }, "fallback").code).toBeUndefined();
  });

  it("reads the portal API's { error } body", () => {
    expect(toRequestError({ error: "Not allowed.", status: 403 }, "fallback").message).toBe("Not allowed.");
  });

  it("falls back to a readable message, with its own wording for 429", () => {
    expect(toRequestError({ status: 500 }, "Sign-in failed.").message).toBe("Sign-in failed.");
    expect(toRequestError({ message: "  ", status: 429 }, "Sign-in failed.").message).toBe(
      TOO_MANY_REQUESTS_MESSAGE,
    );
  });
});

describe("getErrorMessage", () => {
  it("shows only messages meant for people", () => {
    expect(getErrorMessage(new AppRequestError("Shown."), "fallback")).toBe("Shown.");
    expect(getErrorMessage(new TypeError("internal detail"), "fallback")).toBe("fallback");
  });
});
