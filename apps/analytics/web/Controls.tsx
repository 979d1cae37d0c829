import { encodeControlList } from "../src/workbooks/control-values.ts";
import type { ResolvedControl } from "../src/workbooks/run.ts";

/** A single choice's value as Sigma writes it; a multiple choice's list, or `:null` when nothing is chosen. */
const encodeChoice = (values: readonly string[]) => (values.length ? encodeControlList(values) : ":null");

function DateRange({ control, onChange }: { control: ResolvedControl; onChange: (value: string) => void }) {
  const m = /min:(\d{4}-\d{2}-\d{2}),max:(\d{4}-\d{2}-\d{2})/.exec(control.value);
  const start = m?.[1] ?? "";
  const end = m?.[2] ?? "";
  return (
    <fieldset className="wb-control wb-daterange">
      <legend>{control.label}</legend>
      <select
        aria-label={`${control.label} preset`}
        value=""
        onChange={(e) => e.target.value && onChange(e.target.value)}
      >
        <option value="">Preset…</option>
        <option value="mtd">Month to date</option>
        <option value="qtd">Quarter to date</option>
        <option value="ytd">Year to date</option>
        <option value="t12m">Last 12 months</option>
        <option value="all">All history</option>
      </select>
      <label>
        <span className="wb-visually-hidden">{control.label} from</span>
        <input type="date" value={start} onChange={(e) => onChange(`min:${e.target.value},max:${end}`)} />
      </label>
      <span aria-hidden="true">–</span>
      <label>
        <span className="wb-visually-hidden">{control.label} to</span>
        <input type="date" value={end} onChange={(e) => onChange(`min:${start},max:${e.target.value}`)} />
      </label>
    </fieldset>
  );
}

/** The workbook's visible controls (its filters); a change sends the control's value in Sigma's form. */
export function Controls({
  controls,
  change,
}: {
  controls: readonly ResolvedControl[];
  change: (updates: Record<string, string>) => void;
}) {
  return (
    <form className="wb-controls" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
      {controls
        .filter((c) => !c.hidden)
        .map((c) =>
          c.type === "date-range" ? (
            <DateRange key={c.id} control={c} onChange={(v) => change({ [c.id]: v })} />
          ) : c.values ? (
            <label key={c.id} className="wb-control">
              <span>{c.label}</span>
              <select
                multiple
                value={c.values}
                onChange={(e) =>
                  change({ [c.id]: encodeChoice([...e.target.selectedOptions].map((o) => o.value)) })
                }
                data-control-id={c.id}
              >
                {c.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <label key={c.id} className="wb-control">
              <span>{c.label}</span>
              <select
                value={c.value}
                onChange={(e) => change({ [c.id]: encodeChoice([e.target.value]) })}
                data-control-id={c.id}
              >
                {c.options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          ),
        )}
    </form>
  );
}
