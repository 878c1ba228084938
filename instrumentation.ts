// Runs once when the server starts: a bad environment stops it with one line naming the variable (a
// setting that leaves something open is one warning),
// the first administrator is made from ADMIN_EMAIL and ADMIN_PASSWORD when nobody exists, deferred payloads start being reconciled, calls waiting
// to be grouped into incidents are grouped, the subscription delivery worker, the recording archiver and the exercise scheduler start.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { configurationWarnings, exitOnInvalidConfig, getConfig } = await import("./lib/config");
    exitOnInvalidConfig();
    const { createAdminFromEnvironment } = await import("./lib/access/people");
    const { log } = await import("./lib/log");
    // What starts here stops with the process's other parts (lib/process-parts.ts).
    const { processPart } = await import("./lib/process-parts");
    for (const warning of configurationWarnings(getConfig())) log.warn(warning);
    await createAdminFromEnvironment(getConfig().ADMIN_EMAIL, getConfig().ADMIN_PASSWORD).then(
      (admin) => admin && log.info({ user: admin.id }, "first administrator created from ADMIN_EMAIL"),
      (error: unknown) => log.error({ err: error }, "the administrator of ADMIN_EMAIL could not be created"),
    );
    // The centre's GIS data is built into memory now, not on the first call that names an address (docs/geocoding.md).
    const { getCentreIndex } = await import("./lib/geocoding/centre/loaded");
    void getCentreIndex().catch((error: unknown) => log.warn({ err: error }, "the centre's GIS data could not be loaded yet"));
    // Payloads accepted while the database was down are recorded once it answers (docs/webhook.md).
    const { startReconciler } = await import("./lib/reconcile/start-reconciler");
    startReconciler();
    // Calls stored while no grouper ran (docs/incidents.md) are grouped now, then on a timer.
    const { startGrouper } = await import("./lib/incidents/grouper");
    startGrouper();
    // Live calls whose post-call event never came leave "on the line" after LIVE_CALL_TIMEOUT_SECONDS (docs/webhook.md, "Live calls").
    const { startLiveCallSweeper } = await import("./lib/on-the-line/idle");
    startLiveCallSweeper();
    // Outbound webhooks follow the change feed from every instance, one instance per subscription (docs/integrations.md).
    if (getConfig().SUBSCRIPTION_WORKER) {
      const { startDeliveryWorker } = await import("./lib/subscriptions/worker");
      processPart("delivery worker", () => startDeliveryWorker(), (worker) => worker.stop());
    }
    // Vapi's and Retell's recordings are copied into object storage from every instance, each link once (docs/webhook.md).
    if (getConfig().RECORDING_ARCHIVER) {
      const { startRecordingArchiver } = await import("./lib/intake/recording-archiver");
      startRecordingArchiver();
    }
    const tickMs = getConfig().EXERCISE_TICK_MS;
    if (tickMs > 0) {
      const { startExerciseScheduler } = await import("./lib/exercises/scheduler");
      processPart("exercise scheduler", () => startExerciseScheduler({ intervalMs: tickMs }), (scheduler) => scheduler.stop());
    }
  }
}
