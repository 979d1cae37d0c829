/** How long a ping's answer is reused: scrapes every few seconds never reach the BI service more often. */
const FRESH_MS = 30_000;
/** How long a scrape waits for a ping under way (the REST client itself gives up only after 15 s). */
const WAIT_MS = 2_000;

export interface BiReachability {
  /** Whether the BI service answered its last ping: reused while fresh, else asked again within a bound. */
  current(): Promise<boolean>;
}

/**
 * The BI service's reachability for `portal_bi_service_up`, from the REST client's bounded ping (one
 * `listTeams` of one row, as `GET /api/admin/sync/status` asks). One ping at a time; a scrape that finds
 * the last answer stale starts the next and waits for it at most WAIT_MS, then answers the last known one
 * (unreachable before any answer), so a slow service never holds a scrape for long.
 */
export function createBiReachability(ping: () => Promise<boolean>): BiReachability {
  let known: { up: boolean; at: number } | undefined;
  let inFlight: Promise<boolean> | undefined;

  function ask(): Promise<boolean> {
    inFlight ??= ping()
      .catch(() => false)
      .then((up) => {
        known = { up, at: Date.now() };
        return up;
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    async current() {
      if (known && Date.now() - known.at < FRESH_MS) return known.up;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), WAIT_MS);
      });
      try {
        return (await Promise.race([ask(), late])) ?? known?.up ?? false;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
