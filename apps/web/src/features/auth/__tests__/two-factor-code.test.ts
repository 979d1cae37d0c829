import { describe, expect, it } from "vitest";

// Only zod/mini, as on the sign-in page: no zod locale is registered here.
import { ZBackupCodeFormSchema, ZTotpCodeFormSchema } from "../two-factor-code";

const codeError = (result: { error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  result.error?.issues.find((issue) => issue.path[0] === "code")?.message;

describe("authenticator code", () => {
  it("sends the six digits without the spaces an app may show", () => {
    expect(ZTotpCodeFormSchema.parse({ code: "123456" })).toEqual({ code: "123456" });
    expect(ZTotpCodeFormSchema.parse({ code: " 123 456 " })).toEqual({ code: "123456" });
  });

  it.each(["", "   ", "12", "12345", "1234567", "12a456", "123-456"])(
    "asks for the 6 digits when given %j",
    (code) => {
      expect(codeError(ZTotpCodeFormSchema.safeParse({ code }))).toBe(
        "Enter the 6 digits from your authenticator app.",
      );
    },
  );
});

describe("backup code", () => {
  it("sends the code trimmed, as typed otherwise (the server checks it)", () => {
    expect(ZBackupCodeFormSchema.parse({ code: "  abcde-fghij " })).toEqual({ code: "abcde-fghij" });
  });

  it.each(["", "   "])("asks for one of the backup codes when given %j", (code) => {
    expect(codeError(ZBackupCodeFormSchema.safeParse({ code }))).toBe("Enter one of your backup codes.");
  });
});
