// How every browser test, screenshot and benchmark launches a browser: Debian's Chromium (CHROMIUM_PATH to
// override), headless, with the flags this offline, sandbox-less machine needs. Playwright's own browser
// downloads are never used.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};
