import { describe, expect, it } from "vitest";

// Only the zod/mini modules, as on the sign-in screens' first load: no zod locale is registered here.
import { ZResetPasswordSchema, ZSignInSchema, ZSignUpSchema } from "../src/auth.ts";
import { ZErrorResponseSchema } from "../src/errors.ts";

const messages = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join("."), issue.message]));

describe("sign-in screen schemas", () => {
  it("explain every problem a person can cause in their own words", () => {
    expect(messages(ZSignInSchema.safeParse({ email: "not-an-email", password: "" }))).toEqual({
      email: "Enter a valid email address.",
      password: "Password is required.",
    });
    expect(
      messages(ZSignInSchema.safeParse({ email: `${"a".repeat(250)}@example.com`, password: "x" })),
    ).toEqual({
      email: "Email must be at most 254 characters.",
    });
    expect(
      messages(
        ZSignUpSchema.safeParse({ name: "   ", email: "a@example.com", password: "short", role: "editor" }),
      ),
    ).toEqual({ name: "Full name is required.", password: "Password must be at least 8 characters." });
    expect(
      messages(
        ZSignUpSchema.safeParse({
          name: "n".repeat(201),
          email: "a@example.com",
          password: "p".repeat(129),
          role: "author",
        }),
      ),
    ).toEqual({
      name: "Full name must be at most 200 characters.",
      password: "Password must be at most 128 characters.",
    });
    expect(messages(ZResetPasswordSchema.safeParse({ password: "long-enough-1", confirm: "other" }))).toEqual(
      {
        confirm: "The passwords do not match.",
      },
    );
  });

  it("give the values the forms submit (the name trimmed)", () => {
    expect(
      ZSignUpSchema.parse({
        name: "  Ada Lovelace ",
        email: "ada@example.com",
        password: "a-long-one",
        role: "author",
      }),
    ).toEqual({ name: "Ada Lovelace", email: "ada@example.com", password: "a-long-one", role: "author" });
    expect(ZErrorResponseSchema.safeParse({ error: "Nope." }).data).toEqual({ error: "Nope." });
  });
});
