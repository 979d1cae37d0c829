import { z } from "zod";

/** Navigation state that carries a confirmation to the next screen (e.g. a list after a save). */
export type TNoticeState = { notice: string };

const ZNoticeState = z.object({ notice: z.string().min(1) });

/** The confirmation passed along with the navigation, if any. */
export function noticeFrom(state: unknown): string | undefined {
  return ZNoticeState.safeParse(state).data?.notice;
}
