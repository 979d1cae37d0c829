import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

import { DEFAULT_PAGE_SIZE } from "@portal/contracts";

import { pageFromParam } from "./paging";

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Search text and page of a back-office list, kept in the address bar (`?q=oli&page=2`) so a reload,
 * a shared link or Back shows the same page. Typing updates the box at once and the address (and so
 * the query) once typing pauses; a new search starts again at page 1.
 */
export function useListState(limit = DEFAULT_PAGE_SIZE) {
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get("q") ?? "";
  const page = pageFromParam(searchParams.get("page"));

  const [draft, setDraft] = useState(q);
  // Back/forward or a link changed the address: show its search text.
  const [shownQ, setShownQ] = useState(q);
  if (shownQ !== q) {
    setShownQ(q);
    setDraft(q);
  }

  useEffect(() => {
    // Blank text is no search; anything else is kept as typed (the API trims it).
    const wanted = draft.trim() ? draft : "";
    if (wanted === q) return;
    const timer = window.setTimeout(() => {
      setSearchParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          if (wanted) next.set("q", wanted);
          else next.delete("q");
          next.delete("page");
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [draft, q, setSearchParams]);

  const setPage = (nextPage: number) =>
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      if (nextPage > 1) next.set("page", String(nextPage));
      else next.delete("page");
      return next;
    });

  return {
    /** What the search box shows. */
    draft,
    setDraft,
    /** The search the list is showing (trimmed), and its page. */
    q: q.trim(),
    page,
    setPage,
    limit,
    offset: (page - 1) * limit,
  };
}
