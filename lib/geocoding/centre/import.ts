import type { Actor } from "../../access/actor";
import { recordAudit } from "../../audit/record-audit";
import { invalidParameter } from "../../domain-error";
import { getDb } from "../../db/client";
import { type AddressPointRow, addressPointRow, centrelineRow, type FeatureInput, type GisLayerName, layerOf, type RoadCentrelineRow } from "./fields";
import { forgetCentreIndex } from "./loaded";
import { type GisFormat, readFeatures } from "./read";
import type { GisLayerView } from "./schema";

type Tx = Parameters<Parameters<Awaited<ReturnType<typeof getDb>>["$transaction"]>[0]>[0];

/** Rows per INSERT into the staging table. */
const BATCH = 5_000;
/** An import is one transaction however large the file; a million features take about a minute. */
const IMPORT_TIMEOUT_MS = 30 * 60 * 1000;

export interface GisImportResult {
  layer: GisLayerName;
  features: number;
}

const column = <Row, T>(rows: Row[], pick: (row: Row) => T) => rows.map(pick);

async function stageAddressPoints(tx: Tx, rows: AddressPointRow[]): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO gis_staging_address_points
    SELECT * FROM unnest(${column(rows, (r) => r.addNumber)}::int[], ${column(rows, (r) => r.addNumPre)}::text[],
      ${column(rows, (r) => r.addNumSuf)}::text[], ${column(rows, (r) => r.stPreDir)}::text[], ${column(rows, (r) => r.stPreTyp)}::text[],
      ${column(rows, (r) => r.stName)}::text[], ${column(rows, (r) => r.stPosTyp)}::text[], ${column(rows, (r) => r.stPosDir)}::text[],
      ${column(rows, (r) => r.unit)}::text[], ${column(rows, (r) => r.community)}::text[], ${column(rows, (r) => r.postCode)}::text[],
      ${column(rows, (r) => r.state)}::text[], ${column(rows, (r) => r.longitude)}::float8[], ${column(rows, (r) => r.latitude)}::float8[])`;
}

async function stageCentrelines(tx: Tx, rows: RoadCentrelineRow[]): Promise<void> {
  // A line's coordinates travel as one text cell each ("{...}"): unnest cannot take ragged arrays.
  await tx.$executeRaw`
    INSERT INTO gis_staging_centrelines
    SELECT f_l, t_l, f_r, t_r, p_l, p_r, pre, pretyp, name, postyp, posdir, community, post_code, state, line::float8[], road_class, speed_limit, one_way
    FROM unnest(${column(rows, (r) => r.fromAddrL)}::int[], ${column(rows, (r) => r.toAddrL)}::int[], ${column(rows, (r) => r.fromAddrR)}::int[],
      ${column(rows, (r) => r.toAddrR)}::int[], ${column(rows, (r) => r.parityL)}::text[], ${column(rows, (r) => r.parityR)}::text[],
      ${column(rows, (r) => r.stPreDir)}::text[], ${column(rows, (r) => r.stPreTyp)}::text[], ${column(rows, (r) => r.stName)}::text[],
      ${column(rows, (r) => r.stPosTyp)}::text[], ${column(rows, (r) => r.stPosDir)}::text[], ${column(rows, (r) => r.community)}::text[],
      ${column(rows, (r) => r.postCode)}::text[], ${column(rows, (r) => r.state)}::text[],
      ${column(rows, (r) => `{${r.coordinates.join(",")}}`)}::text[], ${column(rows, (r) => r.roadClass)}::text[],
      ${column(rows, (r) => r.speedLimit)}::int[], ${column(rows, (r) => r.oneWay)}::text[])
      AS s(f_l, t_l, f_r, t_r, p_l, p_r, pre, pretyp, name, postyp, posdir, community, post_code, state, line, road_class, speed_limit, one_way)`;
}

const LAYER_TABLES = {
  address_points: {
    table: "gis_address_points",
    columns: "add_number, addnum_pre, addnum_suf, st_predir, st_pretyp, st_name, st_postyp, st_posdir, unit, community, post_code, state, longitude, latitude",
    derived: null,
  },
  centrelines: {
    table: "gis_centrelines",
    columns: "fromaddr_l, toaddr_l, fromaddr_r, toaddr_r, parity_l, parity_r, st_predir, st_pretyp, st_name, st_postyp, st_posdir, community, post_code, state, coordinates, road_class, speed_limit, one_way",
    // Each line's bounding box, for the street map's GiST index (lib/geocoding/centre/street-map.ts).
    derived: {
      column: "bounds",
      value: `(SELECT box(point(min(coordinates[i]), min(coordinates[i + 1])), point(max(coordinates[i]), max(coordinates[i + 1])))
        FROM generate_series(1, array_length(coordinates, 1) - 1, 2) AS i)`,
    },
  },
} as const;

/**
 * Replaces one layer of the centre's GIS data with a file's features (docs/geocoding.md, "The
 * centre's GIS data"). The features stream into a staging table, each checked as it comes; the
 * layer is swapped in at the end of the same transaction. A bad feature, or a file that breaks
 * off, rolls everything back: the error names the line or feature and the field, and the layer
 * keeps its previous data. Imports run one at a time (an advisory lock).
 */
export async function importGisLayer(
  input: { format: GisFormat; chunks: AsyncIterable<Uint8Array>; sourceName: string; layer?: GisLayerName },
  actor?: Actor,
): Promise<GisImportResult> {
  const db = await getDb();
  const result = await db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SET LOCAL statement_timeout = ${IMPORT_TIMEOUT_MS}`);
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('mayday.gis_import'))`;
      let layer = input.layer;
      let features = 0;
      let pending: FeatureInput[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        if (layer === "centrelines") await stageCentrelines(tx, pending.map(centrelineRow));
        else await stageAddressPoints(tx, pending.map(addressPointRow));
        pending = [];
      };
      for await (const feature of readFeatures(input.format, input.chunks)) {
        if (!layer) layer = layerOf(feature);
        if (features === 0) {
          const { table, columns } = LAYER_TABLES[layer];
          await tx.$executeRawUnsafe(
            `CREATE TEMP TABLE gis_staging_${layer} ON COMMIT DROP AS SELECT ${columns} FROM ${table} WITH NO DATA`,
          );
        }
        pending.push(feature);
        features++;
        if (pending.length === BATCH) await flush();
      }
      if (!layer || features === 0) throw invalidParameter("Invalid GIS data", "The file holds no features; nothing was imported");
      await flush();
      const { table, columns, derived } = LAYER_TABLES[layer];
      await tx.$executeRawUnsafe(`TRUNCATE ${table}`);
      await tx.$executeRawUnsafe(
        derived
          ? `INSERT INTO ${table} (${columns}, ${derived.column}) SELECT ${columns}, ${derived.value} FROM gis_staging_${layer}`
          : `INSERT INTO ${table} (${columns}) SELECT ${columns} FROM gis_staging_${layer}`,
      );
      await tx.$executeRaw`
        INSERT INTO gis_layers (layer, features, source_name, imported_at) VALUES (${layer}, ${features}, ${input.sourceName}, now())
        ON CONFLICT (layer) DO UPDATE SET features = EXCLUDED.features, source_name = EXCLUDED.source_name, imported_at = EXCLUDED.imported_at`;
      if (actor) {
        await recordAudit(tx, actor, { action: "gis.imported", target: { kind: "gis_layer", id: layer }, after: { features, source: input.sourceName } });
      }
      return { layer, features };
    },
    { timeout: IMPORT_TIMEOUT_MS, maxWait: IMPORT_TIMEOUT_MS },
  );
  forgetCentreIndex();
  return result;
}

/** What each layer holds now: its feature count, the file it came from and when. */
export async function listGisLayers(): Promise<GisLayerView[]> {
  const db = await getDb();
  const rows = await db.$queryRaw<{ layer: GisLayerName; features: number; source_name: string; imported_at: Date }[]>`
    SELECT layer, features, source_name, imported_at FROM gis_layers ORDER BY layer`;
  return rows.map((row) => ({ ...row, imported_at: Math.floor(row.imported_at.getTime() / 1000) }));
}
