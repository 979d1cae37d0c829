import { spawn, type ChildProcess } from "node:child_process";
import { Redis } from "ioredis";
import { freePort } from "./net.ts";

/**
 * A redis-server of a test's own on a free port, without persistence, so that the test may stop it (as an
 * outage: every connection drops) and start it again on the same port without disturbing anything else.
 */
export interface PrivateRedis {
  url: string;
  /** Kills the server; its keys are gone, as after a failover to an empty replica. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it answers PING. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGKILL");
    });
  };

  const start = async () => {
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      { stdio: "ignore" },
    );
    const probe = new Redis(port, "127.0.0.1", { lazyConnect: true, maxRetriesPerRequest: 0 });
    probe.on("error", () => undefined);
    for (let i = 0; i < 200; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error("redis-server did not start");
  };

  await start();
  return { url: `redis://127.0.0.1:${port}`, stop, start, close: stop };
}
