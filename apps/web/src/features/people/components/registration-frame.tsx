import { useEffect, useEffectEvent, useRef, useState } from "react";

import type { TEmbedData } from "@portal/contracts";

import { Spinner } from "@/components/ui/spinner";
import { useToListWithNotice } from "@/lib/notice";

/**
 * If the frame never fires `load` (blocked by a browser extension, the analytics service down), the
 * admin is not left waiting: the form moves on after this long. Registration in Sigma is also queued on
 * the server (provisioning outbox), so nothing is lost when the frame does not get through.
 */
export const REGISTRATION_FRAME_TIMEOUT_MS = 15_000;

type TRegistrationFrameProps = {
  /** The one-time embed URL from the add response (`data.embed.embedUrl`). */
  src: string;
  title: string;
  /** Called once: when the frame has loaded, or after the timeout. */
  onDone: () => void;
  timeoutMs?: number;
};

/**
 * The hidden frame of Add Client / Add Employee (spec section 2): loading the new person's embed URL
 * makes Sigma create their embed user, with all their teams, before they first open a workbook.
 */
export function RegistrationFrame({
  src,
  title,
  onDone,
  timeoutMs = REGISTRATION_FRAME_TIMEOUT_MS,
}: TRegistrationFrameProps) {
  const doneRef = useRef(false);
  const done = () => {
    if (doneRef.current) return;
    doneRef.current = true;
    onDone();
  };
  const finish = useEffectEvent(done);
  useEffect(() => {
    const timer = window.setTimeout(finish, timeoutMs);
    return () => window.clearTimeout(timer);
  }, [timeoutMs]);

  return (
    <iframe
      src={src}
      title={title}
      hidden
      aria-hidden="true"
      tabIndex={-1}
      width={0}
      height={0}
      onLoad={done}
      className="hidden"
    />
  );
}

/**
 * What Add Client / Add Employee do once the API has registered the person: their embed URL goes to
 * the hidden frame, whose `load` leads on to the list with `notice`. No embed URL (nothing assigned,
 * DEVIATION D18) → straight to the list.
 */
export function useSigmaRegistration(listTo: string, notice: string) {
  const toListWithNotice = useToListWithNotice(listTo);
  const [embedUrl, setEmbedUrl] = useState<string | null>(null);
  const toList = () => toListWithNotice(notice);
  const onRegistered = ({ data }: { data: { embed: TEmbedData } }) => {
    if (data.embed.embedUrl) setEmbedUrl(data.embed.embedUrl);
    else toList();
  };
  return { embedUrl, onRegistered, toList };
}

/** While the hidden frame registers the new person in Sigma: `text` with a spinner, and the frame. */
export function SigmaRegistration({
  registration,
  text,
}: {
  registration: ReturnType<typeof useSigmaRegistration>;
  text: string;
}) {
  if (!registration.embedUrl) return null;
  return (
    <>
      <p role="status" className="flex items-center gap-2.5 text-sm text-navy-800">
        <Spinner className="size-4 text-emerald-600" />
        {text}
      </p>
      <RegistrationFrame
        src={registration.embedUrl}
        title="Sigma registration"
        onDone={registration.toList}
      />
    </>
  );
}
