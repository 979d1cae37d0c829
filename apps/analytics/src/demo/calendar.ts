/** Dates as whole UTC days since 1970-01-01: fast to compare and free of time zones. */
export type Day = number;

const MS_PER_DAY = 86_400_000;

export function dayOf(iso: string): Day {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) throw new Error(`not a date: ${iso}`);
  const ms = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Error(`not a date: ${iso}`);
  return Math.round(ms / MS_PER_DAY);
}

export function isoOf(day: Day): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function parts(day: Day): { year: number; month: number; dom: number; weekday: number } {
  const d = new Date(day * MS_PER_DAY);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    dom: d.getUTCDate(),
    weekday: d.getUTCDay(),
  };
}

export function isBusinessDay(day: Day): boolean {
  const wd = parts(day).weekday;
  return wd !== 0 && wd !== 6;
}

/** The last business day on or before `day`. */
export function businessDayOnOrBefore(day: Day): Day {
  let d = day;
  while (!isBusinessDay(d)) d--;
  return d;
}

/** Same calendar date `years` later (29 February becomes 28 February). */
export function addYears(day: Day, years: number): Day {
  const { year, month, dom } = parts(day);
  const target = new Date(Date.UTC(year + years, month - 1, dom));
  if (target.getUTCMonth() !== month - 1)
    return Math.round(Date.UTC(year + years, month - 1, 28) / MS_PER_DAY);
  return Math.round(target.getTime() / MS_PER_DAY);
}

/**
 * Holding period for US capital gains: long term when sold more than one year after acquisition,
 * i.e. on or after the day after the one-year anniversary.
 */
export function isLongTerm(acquired: Day, sold: Day): boolean {
  return sold > addYears(acquired, 1);
}

export interface CalendarDay {
  day: Day;
  iso: string;
  year: number;
  month: number;
  /** Last business day of its month / quarter / year in the calendar. */
  monthEnd: boolean;
  quarterEnd: boolean;
  /** First business day of its month / quarter in the calendar. */
  monthStart: boolean;
  quarterStart: boolean;
}

/** Business days from `start` to `end` inclusive, with month and quarter boundaries marked. */
export function businessCalendar(start: Day, end: Day): CalendarDay[] {
  const days: CalendarDay[] = [];
  for (let d = start; d <= end; d++) {
    if (!isBusinessDay(d)) continue;
    const p = parts(d);
    days.push({
      day: d,
      iso: isoOf(d),
      year: p.year,
      month: p.month,
      monthEnd: false,
      quarterEnd: false,
      monthStart: false,
      quarterStart: false,
    });
  }
  for (let i = 0; i < days.length; i++) {
    const cur = days[i] as CalendarDay;
    const prev = days[i - 1];
    const next = days[i + 1];
    cur.monthStart = !prev || prev.month !== cur.month;
    cur.quarterStart = cur.monthStart && (cur.month - 1) % 3 === 0;
    // The final day of the calendar is not a month end unless the month really ends there.
    let following = cur.day + 1;
    while (!isBusinessDay(following)) following++;
    cur.monthEnd = (next ? next.month : parts(following).month) !== cur.month;
    cur.quarterEnd = cur.monthEnd && cur.month % 3 === 0;
  }
  return days;
}
