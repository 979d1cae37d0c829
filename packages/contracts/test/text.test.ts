import { describe, expect, it } from "vitest";

import { pathId, ZAddClientRequestSchema, ZWorkbookInputSchema } from "../src/index.ts";
import { ZSignUpSchema } from "../src/auth.ts";
import { textProblem } from "../src/text.ts";

describe("textProblem", () => {
  it.each([
    ["Ann", undefined],
    ["Zoë 😀 O'Brien-Smith", undefined],
    ["a\tb", undefined],
    ["a\u0000b", "Name must not contain NUL characters."],
    ["a\nb", "Name must be on one line (no line breaks)."],
    ["a\rb", "Name must be on one line (no line breaks)."],
    ["a\u2029b", "Name must be on one line (no line breaks)."],
    ["a\u0007b", "Name must not contain control characters."],
    ["a\u007fb", "Name must not contain control characters."],
    ["a\u009bb", "Name must not contain control characters."],
    ["a\uD800", "Name contains an invalid character (a broken emoji or symbol)."],
    ["\uDFFFa", "Name contains an invalid character (a broken emoji or symbol)."],
  ])("%j → %s", (value, problem) => {
    expect(textProblem(value, "Name")).toBe(problem);
  });

  it("lets free text hold line breaks but still no other control characters", () => {
    expect(textProblem("line one\r\nline two\n", "Note", { multiline: true })).toBeUndefined();
    expect(textProblem("bell\u0007", "Note", { multiline: true })).toBe(
      "Note must not contain control characters.",
    );
  });
});

describe("the forms' schemas give the API's messages", () => {
  it("names the field of a control character on Add Client and Create Account", () => {
    const added = ZAddClientRequestSchema.safeParse({
      clientId: "CL-1",
      firstName: "Ann\r\n",
      lastName: "Lee",
      email: "ann@example.com",
      password: "long-enough-pass",
      privilege: "View",
    });
    expect(added.error?.issues[0]).toMatchObject({
      path: ["firstName"],
      message: "First Name must be on one line (no line breaks).",
    });
    const signUp = ZSignUpSchema.safeParse({
      name: "Eve\u0000",
      email: "eve@example.com",
      password: "long-enough-pass",
      role: "author",
    });
    expect(signUp.error?.issues[0]).toMatchObject({
      path: ["name"],
      message: "Full name must not contain NUL characters.",
    });
    expect(
      ZWorkbookInputSchema.safeParse({ workbook_name: "A-abcdefghijklmnopqrstuv", team_name: "T\u0000" })
        .error?.issues[0]?.message,
    ).toBe("Team Name must not contain NUL characters.");
  });
});

describe("pathId", () => {
  it.each([
    ["7", 7],
    ["2147483647", 2147483647],
  ])("reads %s", (raw, id) => {
    expect(pathId("id").parse(raw)).toBe(id);
  });

  it.each([
    ["0x10", "id must be a number."],
    ["1.0", "id must be a whole number."],
    [" 7", "id must be a number."],
    ["+7", "id must be a number."],
    ["1e3", "id must be a number."],
    ["007", "id must be written without leading zeros."],
    ["0", "id must be a positive number."],
    ["-3", "id must be a positive number."],
    ["2147483648", "id is out of range."],
    ["", "id must be a number."],
  ])("refuses %j: %s", (raw, message) => {
    expect(pathId("id").safeParse(raw).error?.issues[0]?.message).toBe(message);
  });
});
