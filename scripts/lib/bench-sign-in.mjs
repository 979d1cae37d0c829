// bench:web's signed-in people: the session cookies of a demo account on one running portal.
import { createOTP } from "@better-auth/utils/otp";

/** The session cookies of a signed-in person (with the second step for the admin), as name/value pairs. */
export async function signIn(baseUrl, account) {
  const jar = new Map();
  const post = async (path, body) => {
    const res = await fetch(`${baseUrl}/api/auth${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: baseUrl,
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
      body: JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const answer = await post("/sign-in/email", { email: account.email, password: account.password });
  if (answer?.twoFactorRedirect) {
    await post("/two-factor/verify-totp", { code: await createOTP(account.totpSecret).totp() });
  }
  return [...jar].map(([name, value]) => ({ name, value }));
}

/** The same cookies for a Playwright browser context of the portal at `baseUrl`. */
export const contextCookies = (baseUrl, cookies) => cookies.map((c) => ({ ...c, url: baseUrl }));

/** The same cookies as one Cookie header (Lighthouse). */
export const cookieHeader = (cookies) => cookies.map((c) => `${c.name}=${c.value}`).join("; ");
