import { ZodError } from "zod";
import { describe, expect, it } from "vitest";

import { ZProvisionRequestSchema } from "../src/provision.ts";

describe("ZProvisionRequestSchema", () => {
  it("throws the full zod ZodError the API's error handler turns into a 400", () => {
    const parse = () => ZProvisionRequestSchema.parse({ name: "Ada", email: "nope", role: "editor" });
    expect(parse).toThrow(ZodError);
    expect(parse).toThrow("Enter a valid email address.");
  });

  it("refuses unknown fields and accepts a self sign-up role only", () => {
    expect(
      ZProvisionRequestSchema.safeParse({
        name: "Ada",
        email: "ada@example.com",
        role: "editor",
        admin: true,
      }).success,
    ).toBe(false);
    expect(
      ZProvisionRequestSchema.safeParse({ name: "Ada", email: "ada@example.com", role: "admin" }).success,
    ).toBe(false);
    expect(
      ZProvisionRequestSchema.parse({ name: " Ada ", email: "ada@example.com", role: "author" }),
    ).toEqual({
      name: "Ada",
      email: "ada@example.com",
      role: "author",
    });
  });
});
