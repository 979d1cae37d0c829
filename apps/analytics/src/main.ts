import { ConfigError } from "./config.ts";
import { startAnalyticsServer } from "./server.ts";

// Entry point: `tsx apps/analytics/src/main.ts` starts the server from the environment.
try {
  const server = await startAnalyticsServer();
  server.app.log.info(`analytics server at ${server.url} (embed base ${server.embedBaseUrl})`);
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  throw error;
}
