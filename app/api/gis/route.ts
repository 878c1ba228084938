import { getConfig } from "@/lib/config";
import { importGisLayer, listGisLayers } from "@/lib/geocoding/centre/import";
import { formatOf } from "@/lib/geocoding/centre/read";
import { ApiError } from "@/lib/http/api-error";
import { bodyChunks, boundedChunks } from "@/lib/http/body";
import { apiRoute, json } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

export const GET = apiRoute("gisLayers", "GET", async () => json({ layers: await listGisLayers() }));

/**
 * The file streams into the import (docs/geocoding.md, "The centre's GIS data"); its Content-Type says CSV, GeoJSON or
 * FlatGeobuf. A body with it never passes through proxy.ts, which would hold it and cut it at 10 MB; one that stops
 * short of its Content-Length is refused whole.
 */
export const POST = apiRoute("gisLayers", "POST", async ({ request, query, actor }) => {
  const format = formatOf(request.headers.get("content-type") ?? "");
  if (!format) throw new ApiError("UNSUPPORTED_MEDIA_TYPE", "Content-Type must be text/csv, application/geo+json or application/flatgeobuf");
  const maxBytes = getConfig().GIS_IMPORT_MAX_BYTES;
  const chunks = boundedChunks(bodyChunks(request, maxBytes), maxBytes, request.headers.get("content-length"));
  return json(await importGisLayer({ format, chunks, sourceName: query.name ?? "upload", layer: query.layer }, actor));
});
