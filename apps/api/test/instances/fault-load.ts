import { isApiErrorCode } from "@portal/contracts";
import { BALANCER_HEADER, type Instance } from "./cluster.ts";

/**
 * A steady load on the portal while its database, Redis or an instance fails, recording every answer, and
 * the checks the fault tests share: a dependency that is away is a 503 with Retry-After and the portal's
 * error body, never another 5xx, and never a wrong answer (a valid session refused, an empty session).
 */

/** Whose route answered: the portal's own, or Better Auth's under /api/auth. */
export type Side = "portal" | "auth";

export interface LoadRequest {
  kind: string;
  side: Side;
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  cookie?: string;
  body?: unknown;
  /** The status of success. */
  expect: number;
  /** What a successful answer's body must show (a session, a workbook list that is not empty...). */
  verify?: (json: unknown) => boolean;
}

export interface Answer extends LoadRequest {
  /** 0: no answer at all (the connection failed, or nothing came within the timeout). */
  status: number;
  sentAt: number;
  answeredAt: number;
  retryAfter: string | null;
  text: string;
  json: unknown;
  /** The test balancer's own 502: the instance it chose did not answer (killed mid-request). */
  balancer: boolean;
}

export interface Lane {
  next(): LoadRequest;
  /** Sees each answer, to record what an acknowledged write made. */
  settle?(answer: Answer): void;
}

const REQUEST_TIMEOUT_MS = 20_000;

export async function send(baseUrl: string, origin: string, request: LoadRequest): Promise<Answer> {
  const sentAt = Date.now();
  const headers: Record<string, string> = { origin };
  if (request.cookie) headers.cookie = request.cookie;
  if (request.body !== undefined) headers["content-type"] = "application/json";
  try {
    const res = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown = undefined;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return {
      ...request,
      status: res.status,
      sentAt,
      answeredAt: Date.now(),
      retryAfter: res.headers.get("retry-after"),
      text,
      json,
      balancer: res.headers.get(BALANCER_HEADER) !== null,
    };
  } catch (error) {
    // fetch's own message is "fetch failed": what went wrong is its cause (reset, closed, bad response...).
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const text =
      error instanceof Error
        ? `${error.name}: ${error.message}${cause ? ` (${cause.code ?? ""} ${cause.message ?? ""})` : ""}`
        : String(error);
    return {
      ...request,
      status: 0,
      sentAt,
      answeredAt: Date.now(),
      retryAfter: null,
      text,
      json: undefined,
      balancer: false,
    };
  }
}

/** Runs every lane in a loop, one request at a time each, until `stop()`. */
export function startLoad(baseUrl: string, origin: string, lanes: Lane[], pauseMs = 100) {
  const answers: Answer[] = [];
  let stopped = false;
  const running = lanes.map(async (lane) => {
    while (!stopped) {
      const answer = await send(baseUrl, origin, lane.next());
      answers.push(answer);
      lane.settle?.(answer);
      await new Promise((r) => setTimeout(r, pauseMs));
    }
  });
  return {
    answers,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Time of day to the millisecond, to set answers beside the faults' timeline. */
export const clock = (at: number) => new Date(at).toISOString().slice(11, 23);

const line = (a: Answer) =>
  `${clock(a.sentAt)}–${clock(a.answeredAt)} ${a.kind}: ${a.method} ${a.path} → ${a.status}` +
  `${a.balancer ? " (balancer)" : ""} ${a.text.slice(0, 300)}`;

/** What a 503 must carry: Retry-After, and `{ error, code, requestId }` with a code of the contract's list. */
export function malformed503(a: Answer): string | null {
  const body = a.json as { error?: unknown; code?: unknown; requestId?: unknown } | undefined;
  const problems: string[] = [];
  if (!a.retryAfter) problems.push("no Retry-After");
  if (typeof body?.error !== "string" || !body.error) problems.push("no error");
  if (!isApiErrorCode(body?.code)) problems.push(`code ${JSON.stringify(body?.code)} not an ApiErrorCode`);
  if (typeof body?.requestId !== "string" || !body.requestId) problems.push("no requestId");
  return problems.length > 0 ? `${problems.join(", ")} — ${line(a)}` : null;
}

/**
 * Everything wrong in `answers`, by category (each list empty when all is well): another 5xx than 503 from
 * an instance, a 503 without its header or body, an answer that is neither the success nor 503 (a session
 * refused or reported empty because the database was away), and requests with no answer at all.
 * `extraOk` says which other answers a request may legitimately get (checked per answer).
 */
export function loadProblems(answers: Answer[], extraOk: (a: Answer) => boolean = () => false) {
  const instanceAnswers = answers.filter((a) => !a.balancer);
  const problems = {
    serverErrorsOtherThan503: instanceAnswers.filter((a) => a.status >= 500 && a.status !== 503).map(line),
    malformed503s: instanceAnswers
      .filter((a) => a.status === 503)
      .map(malformed503)
      .filter((p): p is string => p !== null),
    wrongAnswers: instanceAnswers
      .filter(
        (a) =>
          a.status > 0 &&
          a.status < 500 &&
          !extraOk(a) &&
          (a.status !== a.expect || (a.verify !== undefined && !a.verify(a.json))),
      )
      .map(line),
    noAnswer: instanceAnswers.filter((a) => a.status === 0).map(line),
  };
  return Object.fromEntries(
    Object.entries(problems).map(([name, list]) => [name, capped(list)]),
  ) as typeof problems;
}

/** The first few of a long list, and how many more: a failure stays readable. */
export const capped = (list: string[], first = 12) =>
  list.length > first ? [...list.slice(0, first), `… and ${list.length - first} more`] : list;

/** Answer counts per kind and status, e.g. `sign-in: 200×41 503×7`. */
export function summary(answers: Answer[]): string {
  const counts = new Map<string, Map<string, number>>();
  for (const a of answers) {
    const kind = counts.get(a.kind) ?? new Map<string, number>();
    const key = a.balancer ? `${a.status}(balancer)` : String(a.status);
    kind.set(key, (kind.get(key) ?? 0) + 1);
    counts.set(a.kind, kind);
  }
  return [...counts]
    .map(([kind, byStatus]) => {
      const statuses = [...byStatus].sort(([x], [y]) => x.localeCompare(y)).map(([s, n]) => `${s}×${n}`);
      return `  ${kind}: ${statuses.join(" ")}`;
    })
    .join("\n");
}

/**
 * The error lines the instances printed (pino level ≥ 50, Better Auth's and Node's own error lines) and
 * every line naming one of `requestIds`, counted and cut short: the causes of a 500, for the report. The
 * lines naming a request come first, as printed; the others once per distinct message.
 */
export function instanceErrors(instances: Instance[], requestIds: string[] = [], max = 40): string[] {
  const named: string[] = [];
  const counts = new Map<string, number>();
  for (const instance of instances) {
    for (const text of instance.output.join("").split("\n")) {
      if (requestIds.some((id) => text.includes(id))) {
        named.push(`${instance.name}: ${text.trim().slice(0, 1_500)}`);
        continue;
      }
      let wanted = /\berror\b/i.test(text);
      try {
        wanted = wanted || ((JSON.parse(text) as { level?: number }).level ?? 0) >= 50;
      } catch {
        // not a pino line
      }
      if (!wanted) continue;
      // Timestamps, pids and ids would make every line unique.
      const key = `${instance.name}: ${text
        .trim()
        .replace(/"(time|pid|reqId|hostname)":[^,}]*,?/g, "")
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, "<id>")
        .slice(0, 700)}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const others = [...counts].map(([text, n]) => (n > 1 ? `${n}× ${text}` : text));
  return [...named, ...others].slice(0, max);
}

/** The request ids of the answers that are a 5xx other than 503 (to find their causes in the output). */
export function failedRequestIds(answers: Answer[]): string[] {
  return answers
    .filter((a) => !a.balancer && a.status >= 500 && a.status !== 503)
    .map((a) => (a.json as { requestId?: unknown } | undefined)?.requestId)
    .filter((id): id is string => typeof id === "string");
}

export async function waitFor(check: () => Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return Date.now();
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not reached within ${ms} ms`);
}

/** /readyz of one instance: its status and body, 0 when it does not answer. */
export async function readiness(instance: Instance): Promise<{ status: number; body: string }> {
  try {
    const res = await fetch(`${instance.url}/readyz`, { signal: AbortSignal.timeout(5_000) });
    return { status: res.status, body: await res.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}

/** The last lines an instance printed, when its process ended without being told to (a crash). */
export function crashReport(instances: Instance[], lines = 40): string[] {
  return instances
    .filter((i) => i.child.exitCode !== null)
    .flatMap((i) => [
      `${i.name} exited with ${i.child.exitCode}; its last lines:`,
      ...i.output
        .join("")
        .split("\n")
        .slice(-lines)
        .map((l) => `  ${l.slice(0, 400)}`),
    ]);
}
