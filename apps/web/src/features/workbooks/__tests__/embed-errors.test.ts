import { describe, expect, it } from "vitest";

import { FRAME_SILENT, FRAME_TIMEOUT, SESSION_ENDED, frameFailureText } from "../utils/embed-errors";

/** The codes Sigma documents for `workbook:error` ("Common embed error codes and messages"), all nine. */
const SIGMA_CODES = [
  "EEXIST",
  "EPERM",
  "ESTALE",
  "ENOENT",
  "EACCES",
  "EINVAL",
  "ETIMEDOUT",
  "NETWORK",
  "UNKNOWN",
];

const text = (code: string, message = "") => frameFailureText({ code, message });

describe("frameFailureText", () => {
  it("has a text of its own for each of Sigma's codes and the portal's own, never the frame's raw message", () => {
    const fallback = text("ENOTACODE");
    const codes = [...SIGMA_CODES, FRAME_TIMEOUT, FRAME_SILENT, SESSION_ENDED];
    const titles = new Set<string>();
    for (const code of codes) {
      const shown = text(code, "Duplicate record detected. (internal detail)");
      expect(shown.detail, code).not.toContain("internal detail");
      if (code !== "UNKNOWN") expect(shown.title, code).not.toBe(fallback.title);
      titles.add(shown.title);
    }
    // Each says something different (UNKNOWN shares the generic title with codes Sigma does not document).
    expect(titles.size).toBe(codes.length);
  });

  it("ENOENT fits both of Sigma's causes: the workbook is gone, or the person's access was turned off", () => {
    const { title, detail } = text("ENOENT");
    expect(title).toBe("This workbook is not available.");
    expect(detail).toMatch(/moved or removed/);
    expect(detail).toMatch(/access may have been turned off/);
  });

  it("says what a frame that never spoke may mean: unreachable, or refused", () => {
    const { title, detail } = text(FRAME_SILENT);
    expect(title).toBe("The analytics service did not open this workbook.");
    expect(detail).toMatch(/could not be reached/);
    expect(detail).toMatch(/refused/);
  });

  it("says a workbook session ended, and that Try again continues", () => {
    expect(text(SESSION_ENDED)).toEqual({
      title: "Your workbook session has ended.",
      detail:
        "For your security, workbook sessions end after a while. Try again to continue where you left off.",
    });
  });

  it("NETWORK, ETIMEDOUT and ESTALE say what happened in the person's words", () => {
    expect(text("NETWORK").title).toBe("The analytics service could not be reached.");
    expect(text("ETIMEDOUT").title).toBe("The workbook's data took too long to load.");
    expect(text("ESTALE").title).toBe("This workbook has changed.");
  });

  it("a code Sigma does not document shows the frame's message, or a general one", () => {
    expect(text("ENOTACODE", "Bookmark not selected")).toEqual({
      title: "This workbook could not be shown.",
      detail: "Bookmark not selected",
    });
    expect(text("ENOTACODE").detail).toBe("The analytics service reported a problem.");
  });
});
