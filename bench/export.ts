/**
 * GET /api/calls/export.csv over 100,000 stored calls on a production build, sampling the server's
 * resident memory (RSS) every 100 ms during the export, to show that memory stays flat:
 *
 *   npm run build && BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres BENCH_PORT=3101 npx tsx bench/export.ts
 *
 * (TEST_DATABASE_URL names the server when BENCH_DATABASE_URL is unset). The calls are loaded into a
 * scratch database (bench/scratch-database.ts), dropped at the end. The server's V8 heap is capped
 * (BENCH_SERVER_HEAP_MIB, default 256; at 128 it ran out within 7 s of starting, before the
 * measured exports), so the collector keeps memory tight. Exports: three in a row with a fast
 * reader (memory must level off, not climb), a slow reader (pauses 10 ms per chunk, so the server
 * has to hold back rather than buffer), and a filtered one. Figures go to docs/performance.md.
 */
import { benchAuth, startProductionServer } from "./production-server";
import { withScratchClient } from "./scratch-database";
import { seed } from "./seed-calls";

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/postgres";
const port = Number(process.env.BENCH_PORT ?? process.env.E2E_PORT ?? 3101);
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const HEAP_MIB = Number(process.env.BENCH_SERVER_HEAP_MIB ?? 256);

interface ExportRun {
  label: string;
  rows: number;
  mebibytes: number;
  seconds: number;
  rssBefore: number;
  rssMin: number;
  rssMax: number;
}

async function measureExport(
  base: string,
  rssMiB: () => number,
  label: string,
  query: string,
  pauseMs: number,
): Promise<ExportRun> {
  const rssBefore = rssMiB();
  const samples: number[] = [rssBefore];
  const sampler = setInterval(() => samples.push(rssMiB()), 100);
  const started = performance.now();
  let bytes = 0;
  let lineBreaks = 0;
  try {
    const response = await fetch(`${base}/api/calls/export.csv?${query}`, { headers: benchAuth });
    if (!response.ok || !response.body) throw new Error(`export answered ${response.status}: ${await response.text()}`);
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lineBreaks++;
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  samples.push(rssMiB());
  return {
    label,
    // The bench's summaries hold no line breaks: every LF ends a row, the header's included.
    rows: lineBreaks - 1,
    mebibytes: bytes / 2 ** 20,
    seconds,
    rssBefore,
    rssMin: Math.min(...samples),
    rssMax: Math.max(...samples),
  };
}

async function main(): Promise<void> {
  delete process.env.REDIS_URL;
  await withScratchClient(server, async (client, url) => {
    await seed(client, 1, CALLS);
    // A capped heap makes the collector keep memory tight, so the RSS samples show what is live.
    const app = await startProductionServer(port, { DATABASE_URL: url, NODE_OPTIONS: `--max-old-space-size=${HEAP_MIB}` });
    try {
      // Warm-up: the route's first run loads its modules and opens the pool.
      await measureExport(app.base, app.rssMiB, "warm-up", "severity=critical&status=active", 0);
      const runs = [
        await measureExport(app.base, app.rssMiB, "all calls, fast reader (1st)", "", 0),
        await measureExport(app.base, app.rssMiB, "all calls, fast reader (2nd)", "", 0),
        await measureExport(app.base, app.rssMiB, "all calls, fast reader (3rd)", "", 0),
        await measureExport(app.base, app.rssMiB, "all calls, slow reader (10 ms per chunk)", "", 10),
        await measureExport(app.base, app.rssMiB, "filtered: simulation=true&severity=high", "simulation=true&severity=high", 0),
      ];
      console.log(`\n${CALLS} calls stored; server heap capped at ${HEAP_MIB} MiB; RSS sampled every 100 ms\n`);
      console.log("| Export | rows | MiB | seconds | rows/s | RSS before | RSS min–max during |");
      console.log("|---|---|---|---|---|---|---|");
      for (const run of runs) {
        console.log(
          `| ${run.label} | ${run.rows} | ${run.mebibytes.toFixed(1)} | ${run.seconds.toFixed(2)} | ` +
            `${Math.round(run.rows / run.seconds)} | ${run.rssBefore.toFixed(0)} MiB | ` +
            `${run.rssMin.toFixed(0)}–${run.rssMax.toFixed(0)} MiB |`,
        );
      }
    } finally {
      app.stop();
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
