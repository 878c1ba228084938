/**
 * The production HTTP server: Next's request handler behind a plain Node server whose only job is
 * to record the socket peer in `x-forwarded-for` (see lib/http/client-address.ts). `next start`
 * fills that header only when the client did not send one, so a client could pick its own
 * rate-limit key; here the peer is always appended, exactly as a proxy hop would.
 */
import { createServer } from "node:http";
import next from "next";
import { answerBeforeNext } from "../lib/http/before-next";
import { appendPeer } from "../lib/http/client-address";

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const app = next({ dev: false, dir: process.cwd(), port });
  const handle = app.getRequestHandler();
  await app.prepare();
  const server = createServer((request, response) => {
    if (answerBeforeNext(request, response)) return;
    request.headers["x-forwarded-for"] = appendPeer(request.headers["x-forwarded-for"], request.socket.remoteAddress);
    void handle(request, response);
  });
  server.listen(port, () => console.log(`Mayday listening on http://localhost:${port}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
