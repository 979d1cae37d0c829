// `npm run lint:cycles`: fails when any module of the portal imports itself through others (scripts/lib/cycles.mjs).
import { findCycles, SOURCE_TREES } from "./lib/cycles.mjs";

let found = 0;
for (const tree of SOURCE_TREES) {
  for (const cycle of await findCycles(tree)) {
    found += 1;
    console.error(`import cycle: ${[...cycle, cycle[0]].join(" → ")}`);
  }
}
if (found > 0) {
  console.error(`${found} import cycle(s). Move what both sides need into a module of its own.`);
  process.exit(1);
}
console.log(`no import cycles in ${SOURCE_TREES.flatMap((tree) => tree.paths).join(", ")}`);
