import type { TAuditVerification } from "@portal/contracts";
import type { Executor } from "../db/client.ts";
import { currentAuditChainKey, verifyAuditChain } from "./chain.ts";

/**
 * `npm run audit:verify` for the admin screen. The check walks the whole chain (seconds at a million rows),
 * so its result is reused: a result younger than `maxAgeMs` is answered as it is; an older one is answered
 * too while a new check runs behind it (the screen shows when it was made); only the very first request
 * waits. Concurrent requests share one walk.
 */
export function createAuditVerification(db: Executor, options: { maxAgeMs?: number } = {}) {
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  let last: { result: Omit<TAuditVerification, "refreshing">; at: number } | undefined;
  let running: Promise<Omit<TAuditVerification, "refreshing">> | undefined;

  function check() {
    running ??= verifyAuditChain(db, currentAuditChainKey())
      .then((summary) => {
        const result = {
          ok: summary.ok,
          rows_checked: summary.rowsChecked,
          unchained_rows: summary.unchainedRows,
          unsealed_rows: summary.unsealedRows,
          last_seq: summary.lastSeq,
          last_hash: summary.lastHash,
          first_bad: summary.firstBad,
          checked_at: new Date().toISOString(),
        };
        last = { result, at: Date.now() };
        return result;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    async current(): Promise<TAuditVerification> {
      if (!last) return { ...(await check()), refreshing: false };
      if (Date.now() - last.at >= maxAgeMs) {
        // Answer what is known now; a failed background check is tried again by the next request.
        check().catch(() => undefined);
      }
      return { ...last.result, refreshing: running !== undefined };
    },
  };
}
