import pino from "pino";

// Structured logs on stdout; the level comes from LOG_LEVEL without validating the whole config,
// so that a config error can itself be logged.
export const log = pino({
  level: process.env.LOG_LEVEL || (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "mayday" },
});
