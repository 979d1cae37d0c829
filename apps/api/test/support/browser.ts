import { chromium, type Browser } from "@playwright/test";
import { chromiumLaunchOptions } from "../../../../scripts/lib/chromium.mjs";

/** Debian's Chromium, launched as every browser test launches it. Never downloads a browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunchOptions);
}
