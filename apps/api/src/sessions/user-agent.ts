import Bowser from "bowser";
import type { TSession } from "@portal/contracts";

export type DeviceDescription = Pick<TSession, "browser" | "os" | "device">;

const DEVICES = new Set(["desktop", "mobile", "tablet"]);

/**
 * Browser, system and kind of device named by a user agent, as a person recognises them ("Chrome 131",
 * "Windows 10", "iOS 18.1"), read with bowser. Nulls where the user agent does not say.
 */
export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  if (!userAgent) return { browser: null, os: null, device: null };
  const { browser, os, platform } = Bowser.parse(userAgent);
  return {
    browser: browser.name ? withVersion(browser.name, major(browser.version)) : null,
    os: os.name ? withVersion(os.name, osVersion(os)) : null,
    device: platform.type && DEVICES.has(platform.type) ? (platform.type as TSession["device"]) : null,
  };
}

const withVersion = (name: string, version: string | undefined) => (version ? `${name} ${version}` : name);

const major = (version: string | undefined) => version?.split(".")[0] || undefined;

function osVersion(os: { name?: string; version?: string; versionName?: string }): string | undefined {
  // Windows: "NT 10.0" is "10" to a person. macOS: browsers report 10.15.7 whatever the real version, so
  // no version is better than a wrong one.
  if (os.name === "Windows") return os.versionName;
  if (os.name === "macOS") return undefined;
  return os.version?.split(".").slice(0, 2).join(".") || undefined;
}
