import { queryOptions, useQuery } from "@tanstack/react-query";

import { ZProvisionAndEmbedRequestSchema, ZProvisionAndEmbedResponseSchema } from "@portal/contracts";
import type { TProvisionAndEmbedRequest } from "@portal/contracts";

import { apiFetch } from "@/lib/api-client";
import { AppRequestError } from "@/lib/errors";

import { backendErrorMessage } from "../utils/embed-errors";
import { takeStartedEmbed } from "./start-view";
import type { TStartedEmbed } from "./start-view";

/** The request's body: `clientId` only for a client viewed as a delegate, none for one's own workbooks. */
export function embedRequestBody(workbookId: string, clientId: number | null): TProvisionAndEmbedRequest {
  return ZProvisionAndEmbedRequestSchema.parse(clientId === null ? { workbookId } : { workbookId, clientId });
}

/**
 * POST /api/sigma/provision-and-embed: mints a one-time embed URL (a Sigma JWT URL whose `exp` ends the
 * frame's session, an hour by default; the view renews the frame before then) for one of the caller's
 * workbooks, or of the client `clientId` who shares it with them. Resolves to null when the answer carries
 * no usable URL ('No embed data available.'); a failed call throws 'Backend error {status}: {body}' (spec
 * section 8).
 */
export async function getEmbedUrl(
  workbookId: string,
  clientId: number | null = null,
  signal?: AbortSignal,
): Promise<string | null> {
  const response = await apiFetch("/api/sigma/provision-and-embed", {
    method: "POST",
    cache: "no-store",
    body: embedRequestBody(workbookId, clientId),
    signal,
  });
  const body = await response.text().catch(() => "");
  if (!response.ok) {
    throw new AppRequestError(backendErrorMessage(response.status, body), { status: response.status });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return null;
  }
  return ZProvisionAndEmbedResponseSchema.safeParse(payload).data?.embedUrl || null;
}

/**
 * Every key mints a new URL, and a URL is never reused: `load` must be new for each mount and each retry
 * (the URL is single-use, so a cached one would only ever show an error). Nothing refetches behind the
 * view's back either, because a new URL reloads the frame and loses what the person was looking at.
 */
export const embedUrlQueryOptions = (workbookId: string, clientId: number | null, load: string) =>
  queryOptions({
    queryKey: ["workbooks", "embed-url", clientId ?? "own", workbookId, load],
    queryFn: ({ signal }) => getEmbedUrl(workbookId, clientId, signal),
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/**
 * A view's frame URL query. `enabled: false` mints nothing (a renewal that is not under way). The view's first
 * frame of a page that started its view (decision 024) takes the URL that came with the start instead of
 * minting: its key is new, so the cache asks `initialData` once, and the frame's renewal is counted from the
 * URL's arrival (`initialDataUpdatedAt`).
 */
export function embedUrlQuery(workbookId: string, clientId: number | null, load: string, enabled = true) {
  let started: TStartedEmbed | null | undefined;
  const take = () => (started ??= enabled ? takeStartedEmbed(workbookId, clientId) : null);
  return queryOptions({
    ...embedUrlQueryOptions(workbookId, clientId, load),
    enabled,
    initialData: () => take()?.url,
    initialDataUpdatedAt: () => take()?.receivedAt,
  });
}

export function useEmbedUrl(workbookId: string, clientId: number | null, load: string, enabled = true) {
  return useQuery(embedUrlQuery(workbookId, clientId, load, enabled));
}
