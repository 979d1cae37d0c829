import { describe, expect, it } from "vitest";

import { SIGNED_IN, deviceName, lastActiveText } from "../utils/session-text";

describe("deviceName", () => {
  it("names the browser on the system, or what is known, or says it is unknown", () => {
    expect(deviceName({ browser: "Chrome 131", os: "Windows 10" })).toBe("Chrome 131 on Windows 10");
    expect(deviceName({ browser: "Firefox 133", os: null })).toBe("Firefox 133");
    expect(deviceName({ browser: null, os: "Linux" })).toBe("Linux");
    expect(deviceName({ browser: null, os: null })).toBe("Unknown browser");
  });
});

describe("lastActiveText", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

  it("says just now within the minute activity is noted to", () => {
    expect(lastActiveText(ago(0), now)).toBe("just now");
    expect(lastActiveText(ago(89_000), now)).toBe("just now");
  });

  it("counts minutes, then hours, then gives the date", () => {
    expect(lastActiveText(ago(5 * 60_000), now)).toBe(relative.format(-5, "minute"));
    expect(lastActiveText(ago(3 * 3_600_000), now)).toBe(relative.format(-3, "hour"));
    expect(lastActiveText(ago(30 * 3_600_000), now)).toBe(SIGNED_IN.format(new Date(ago(30 * 3_600_000))));
  });
});
