// Runs once when the server starts: a bad environment stops it with one line naming the variable,
// and an API left open in production is logged.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { exitOnInvalidConfig, getConfig } = await import("./lib/config");
    exitOnInvalidConfig();
    const { warnWhenApiIsOpen } = await import("./lib/access/api-key");
    warnWhenApiIsOpen(getConfig());
  }
}
