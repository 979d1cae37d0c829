import { useLocation } from "react-router";
import { z } from "zod";

const ZEmbedState = z.object({ embedUrl: z.url({ protocol: /^https?$/ }) });

/** /admin/embed-url: a full-width frame of the embed URL passed in the navigation state (spec section 2). */
export function EmbedUrlPage() {
  const location = useLocation();
  const embedUrl = ZEmbedState.safeParse(location.state).data?.embedUrl;

  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="sr-only">
        Embed
      </h1>
      {embedUrl ? (
        <iframe
          src={embedUrl}
          title="Embedded workbook"
          allow="camera; microphone; clipboard-write; fullscreen"
          className="block h-[calc(100dvh-90px-4rem)] min-h-[28rem] w-full rounded-2xl border border-slate-200 bg-white shadow-sm"
        />
      ) : (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-14 text-center text-sm text-slate-600">
          No embed data available
        </p>
      )}
    </section>
  );
}
