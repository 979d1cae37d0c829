import { openDatabase } from "./src/db/database.ts";
import { installRowSecurity } from "./src/db/row-security.ts";
import { generateDemoData } from "./src/demo/load.ts";
import { loadWorkbookDefinitions } from "./src/workbooks/catalog.ts";
import { runWorkbookPage } from "./src/workbooks/run.ts";
const db = await openDatabase({});
await installRowSecurity(db, "analytics_reader");
await generateDemoData(db, { size: { clients: 6 }, seed: 24, asOf: "2026-11-20", readerRole: "analytics_reader" });
const wbs = await loadWorkbookDefinitions();
for (const wb of wbs.values()) {
  for (const ids of [["CL-1001"], ["CL-1001", "CL-1002"], []]) {
    const t = Date.now();
    const r = await runWorkbookPage(db, "analytics_reader", ids, wb, undefined, {}, (e, id) => console.log("ERR", id, String(e)));
    console.log(wb.name, ids, Date.now() - t, "ms", JSON.stringify(r.controls.map((c) => [c.id, c.value, c.options.length])));
    for (const [id, e] of Object.entries(r.elements)) console.log("  ", id, e.error ?? "", e.rows.length, JSON.stringify(e.rows[0] ?? null).slice(0, 250));
  }
}
await db.close();
