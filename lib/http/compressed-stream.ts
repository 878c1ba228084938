import { constants, createGzip } from "node:zlib";

/**
 * A server-sent event stream gzipped for a client that accepts it, each chunk flushed as it comes
 * (Z_SYNC_FLUSH), so an event is never held back for more. In a surge the events repeat their
 * keys and much of their text: compressed they cost the dashboard a fraction (docs/dashboard.md,
 * "What a surge costs"). A small window and memory level keep a stream's compressor at about 32 KB,
 * so 500 open streams stay within the stream clients' memory budget.
 */
export function gzipEventStream(source: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const gzip = createGzip({ windowBits: 12, memLevel: 5, level: 6 });
  const reader = source.getReader();
  // Read in paused mode: once a flush's callback runs, its output is in the readable buffer
  // (flowing mode would hand it over a tick later, one event behind).
  const drain = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    for (let chunk: Buffer | null = gzip.read(); chunk !== null; chunk = gzip.read()) controller.enqueue(new Uint8Array(chunk));
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) {
          await new Promise<void>((resolve) => gzip.flush(constants.Z_FINISH, () => resolve()));
          drain(controller);
          gzip.destroy();
          controller.close();
          return;
        }
        gzip.write(value);
        await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
        drain(controller);
      },
      async cancel(reason) {
        gzip.destroy();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 1 },
  );
}

/** Whether the request's Accept-Encoding takes gzip (any q but 0). */
export function acceptsGzip(headers: Headers): boolean {
  return (headers.get("accept-encoding") ?? "")
    .split(",")
    .some((entry) => {
      const [coding, ...parameters] = entry.trim().toLowerCase().split(";");
      const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
      return (coding === "gzip" || coding === "*") && (q === undefined || Number(q.slice(2)) > 0);
    });
}
