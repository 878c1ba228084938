// Runs once when the server starts: a bad environment stops it with one line naming the variable.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { exitOnInvalidConfig } = await import("./lib/config");
    exitOnInvalidConfig();
  }
}
