import type { QueryClient, QueryKey } from "@tanstack/react-query";

import type { TListPage } from "./paging";

/**
 * Spec section 4: after a delete the item disappears from the list at once. Every cached page of the
 * list under `listKey` loses the row and one from its total; the refetch that follows brings the
 * rest of the page up to date (a row from the next page moves up).
 */
export function removeFromCachedLists<T>(
  queryClient: QueryClient,
  listKey: QueryKey,
  isRemoved: (row: T) => boolean,
): void {
  queryClient.setQueriesData<TListPage<T>>({ queryKey: [...listKey, "list"] }, (page) => {
    if (!page) return page;
    const rows = page.rows.filter((row) => !isRemoved(row));
    if (rows.length === page.rows.length) return page;
    return { ...page, rows, total: Math.max(0, page.total - (page.rows.length - rows.length)) };
  });
}
