import { useNavigate } from "react-router";
import { z } from "zod";

/** Navigation state that carries a confirmation to the next screen (e.g. a list after a save). */
export type TNoticeState = { notice: string };

const ZNoticeState = z.object({ notice: z.string().min(1) });

/** The confirmation passed along with the navigation, if any. */
export function noticeFrom(state: unknown): string | undefined {
  return ZNoticeState.safeParse(state).data?.notice;
}

/** After a save: to the form's list, with the confirmation the list shows on top. */
export function useToListWithNotice(listTo: string): (notice: string) => void {
  const navigate = useNavigate();
  return (notice) => void navigate(listTo, { state: { notice } satisfies TNoticeState });
}
