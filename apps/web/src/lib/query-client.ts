import { QueryClient } from "@tanstack/react-query";

/** One client for the whole SPA; route loaders read from it too, so it lives outside React. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
