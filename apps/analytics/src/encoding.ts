/** Whether an Accept-Encoding header accepts `encoding` (listed, or `*`, without q=0). */
export function acceptsEncoding(header: string | string[] | undefined, encoding: string): boolean {
  const offers = String(header ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => part.trim().split(";"));
  const match =
    offers.find(([name]) => name?.trim() === encoding) ?? offers.find(([name]) => name?.trim() === "*");
  if (!match) return false;
  const q = match.slice(1).find((p) => p.trim().startsWith("q="));
  return q === undefined || Number(q.trim().slice(2)) > 0;
}
