import { buildAnalyticsFrontEnd } from "../src/frontend.ts";

export default async function setup(): Promise<void> {
  await buildAnalyticsFrontEnd({ quiet: true });
}
