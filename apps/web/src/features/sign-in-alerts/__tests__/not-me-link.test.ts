import { describe, expect, it } from "vitest";

import { NOT_ME_LINK_INCOMPLETE } from "@portal/contracts";

import { AppRequestError } from "@/lib/errors";

import { isDeadLink, notMeTokenOf } from "../utils/not-me-link";

const TOKEN = "a".repeat(20) + "-_" + "Z9".repeat(10) + "x";

describe("notMeTokenOf", () => {
  it("reads the link's token", () => {
    expect(TOKEN).toHaveLength(43);
    expect(notMeTokenOf(`?token=${TOKEN}`)).toEqual({ token: TOKEN });
    expect(notMeTokenOf(`?utm_source=mail&token=${TOKEN}`)).toEqual({ token: TOKEN });
  });

  it("says the link is not complete when the token is missing, cut short or changed", () => {
    for (const search of [
      "",
      "?token=",
      `?token=${TOKEN.slice(0, 40)}`,
      `?token=${TOKEN}x`,
      `?token=${TOKEN.slice(1)}!`,
    ]) {
      expect(notMeTokenOf(search), search).toEqual({ problem: NOT_ME_LINK_INCOMPLETE });
    }
  });
});

describe("isDeadLink", () => {
  it("is true for a link the server says can no longer be used, false for a failure worth trying again", () => {
    expect(isDeadLink(new AppRequestError("used", { status: 400, code: "NOT_ME_LINK_INVALID" }))).toBe(true);
    expect(isDeadLink(new AppRequestError("cut", { status: 400, code: "INVALID_INPUT" }))).toBe(true);
    expect(isDeadLink(new AppRequestError("slow down", { status: 429, code: "RATE_LIMITED" }))).toBe(false);
    expect(isDeadLink(new AppRequestError("The portal could not be reached."))).toBe(false);
    expect(isDeadLink(new Error("boom"))).toBe(false);
  });
});
