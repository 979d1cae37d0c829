import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: () => Record<string, unknown>;
}

/**
 * One HTTP/1.1 request written byte for byte to a listening server: `app.inject` (light-my-request) parses
 * the URL first and would resolve `..`, `\` and the absolute form before the server ever saw them.
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
    for (const [key, value] of Object.entries(headers)) lines.push(`${key}: ${value}`);
    if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`);
    });
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const head = text.slice(0, split).split("\r\n");
      const status = Number(head[0]?.split(" ")[1]);
      const answerHeaders: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(":");
        answerHeaders[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let answerBody = text.slice(split + 4);
      if (answerHeaders["transfer-encoding"] === "chunked") answerBody = unchunk(answerBody);
      resolve({
        status,
        headers: answerHeaders,
        body: answerBody,
        json: () => JSON.parse(answerBody) as Record<string, unknown>,
      });
    });
  });
}

function unchunk(text: string): string {
  let out = "";
  let rest = text;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
