import { buildApp, DEFAULT_WEB_DIST } from "./app.ts";
import { ensureUser } from "./accounts/accounts.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { checkDeploymentSecrets } from "./deployment/secret-checks.ts";
import { dependencyFault } from "./lib/dependency-faults.ts";
import { findPublishedCredentials, publishedCredentialsMessage } from "./demo/published-credentials.ts";
import { seedDemoData } from "./demo/seed.ts";
import { startImportWorker } from "./import/worker.ts";
import { startMetricsListener } from "./metrics/listener.ts";
import { startProvisioningWorker } from "./sigma/provisioning.ts";

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config);
  await database.migrate();
  const { app, auth, biClient, lifecycle, invitations, auditSealer } = await buildApp({
    config,
    database,
    webDist: process.env.WEB_DIST ?? DEFAULT_WEB_DIST,
  });

  // Secrets the database depends on (issue 25): another AUDIT_KEY or BETTER_AUTH_SECRET than the database
  // was written with stops start-up here, instead of failing one request in N behind the load balancer.
  const problems = await checkDeploymentSecrets(database.db, {
    config,
    secretConfig: (await auth.$context).secretConfig,
    record: true,
  });
  if (problems.length > 0) {
    console.error(["The portal cannot start:", ...problems.map((p) => `  ${p.message}`)].join("\n"));
    await app.close();
    await database.close();
    process.exit(1);
  }

  if (config.admin) {
    const { status } = await ensureUser(database.db, {
      email: config.admin.email,
      name: "Administrator",
      password: config.admin.password,
      role: "admin",
      resetExisting: true,
    });
    app.log.info({ email: config.admin.email, result: status }, "admin account from ADMIN_EMAIL ensured");
  }
  const demo = config.demoData ? await seedDemoData(auth, database.db) : [];
  // Production is never the demo: nobody who read the README may sign in.
  if (config.isProduction) {
    const published = await findPublishedCredentials(database.db, (await auth.$context).secretConfig);
    if (published.length > 0) {
      console.error(publishedCredentialsMessage(published));
      await app.close();
      await database.close();
      process.exit(1);
    }
  }

  // Delivers queued member and team changes to the BI service, with retries, from the outbox table;
  // every instance runs one, and they share the work through leases.
  const worker = startProvisioningWorker({
    db: database.db,
    client: biClient,
    config,
    log: app.log,
    leaseMs: config.outbox.leaseMs,
    concurrency: config.outbox.concurrency,
  });

  // Imports CSV files of clients and employees in batches (decision 013); every instance runs one.
  const importWorker = startImportWorker({ db: database.db, log: app.log, invitations });

  // METRICS_PORT: Prometheus's /metrics on a port of its own (metrics/listener.ts); else nothing.
  const metricsListener = await startMetricsListener(app, config, database.db);

  // Graceful shutdown, within 10 s: /readyz says 503 at once (the load balancer stops sending), then the
  // listener closes and requests in flight finish, the worker gives back its claims, and the process exits.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 9_500).unref();
    lifecycle.draining = true;
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    // A keep-alive connection that goes idle once its last request is answered would hold the close open
    // until its timeout: such connections are closed as they go idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    await Promise.all([
      app.close().finally(() => clearInterval(idle)),
      worker.stop(4_000),
      importWorker.stop(),
      metricsListener?.close(),
    ]);
    // The workers' last audit rows, written after the app's own close sealed its rows (decision 023).
    await auditSealer.flush();
    await database.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  const lines = [
    "",
    `  Meridian client portal is running at ${config.publicUrl}/login`,
    `  Admin sign-in: ${config.publicUrl}/admin-login`,
    `  Database: ${database.kind === "pglite" ? `embedded PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)"}`,
  ];
  if (demo.length > 0) {
    lines.push("", "  Demo sign-ins:");
    for (const d of demo) {
      lines.push(`    ${d.role.padEnd(9)} ${d.email.padEnd(40)} ${d.password}`);
      if (d.totp) {
        lines.push(
          `              then the 6-digit code from an authenticator app with the demo key ${d.totp.key}`,
          `              (add it by hand, or open/scan ${d.totp.uri})`,
        );
      }
    }
  }
  if (config.mfaRequiredRoles.length > 0) {
    lines.push(
      "",
      `  Two-step verification is required for: ${config.mfaRequiredRoles.join(", ")} (MFA_REQUIRED_ROLES).`,
      "  Other admins set it up on their first sign-in.",
    );
  }
  console.log(lines.join("\n") + "\n");
}

main().catch((error: unknown) => {
  // The database away at start: said as such (naming the setting), not as a driver's stack.
  const away = dependencyFault(error);
  if (away?.dependency === "database") {
    console.error(
      `The portal could not start: the database (DATABASE_URL) is not reachable (${away.detail}). ` +
        "Start it, or check DATABASE_URL, and start the portal again.",
    );
    process.exit(1);
  }
  console.error("The portal could not start:", error instanceof Error ? error.message : error);
  if (process.env.LOG_LEVEL === "debug") console.error(error);
  process.exit(1);
});
