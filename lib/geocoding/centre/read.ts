import { Readable } from "node:stream";
import { JSONParser } from "@streamparser/json";
import { CsvError, parse } from "csv-parse";
import { deserialize } from "flatgeobuf/lib/mjs/geojson.js";
import { DomainError, invalidParameter } from "../../domain-error";
import { type FeatureInput, featureFields } from "./fields";

export const GIS_FORMATS = ["geojson", "csv", "flatgeobuf"] as const;
export type GisFormat = (typeof GIS_FORMATS)[number];

const malformed = (where: string, problem: string) =>
  invalidParameter("Invalid GIS data", `${where}: ${problem}; nothing was imported`);

/**
 * A CSV file's rows as they stream in, with a header row (NENA field names, or OpenAddresses'
 * LON,LAT,NUMBER,STREET,...); each row names its line for errors.
 */
async function* csvFeatures(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FeatureInput> {
  const parser = Readable.from(chunks).pipe(parse({ columns: true, bom: true, info: true, skip_empty_lines: true, trim: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      yield { where: `line ${info.lines}`, fields: featureFields(record) };
    }
  } catch (error) {
    if (error instanceof CsvError) throw malformed(`line ${(error as CsvError & { lines?: number }).lines ?? "?"}`, error.message);
    throw error;
  }
}

/**
 * A GeoJSON FeatureCollection's features one at a time (@streamparser/json emits each element of
 * `features` and keeps none): a file of a million features is never one string or one array.
 */
async function* geojsonFeatures(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FeatureInput> {
  const parser = new JSONParser({ paths: ["$.type", "$.features.*"], keepStack: false });
  const ready: FeatureInput[] = [];
  let index = 0;
  let type: unknown;
  parser.onValue = ({ value, key }) => {
    if (key === "type") {
      type = value;
      return;
    }
    const feature = value as { type?: unknown; properties?: unknown; geometry?: unknown } | null;
    const where = `feature ${index++}`;
    if (feature?.type !== "Feature") throw malformed(where, "not a GeoJSON Feature");
    const properties = feature.properties && typeof feature.properties === "object" ? (feature.properties as Record<string, unknown>) : {};
    ready.push({ where, fields: featureFields(properties), geometry: feature.geometry });
  };
  const feed = (write: () => void) => {
    try {
      write();
    } catch (error) {
      if (!(error instanceof DomainError)) throw malformed(`feature ${index}`, `not valid JSON (${(error as Error).message.slice(0, 120)})`);
      throw error;
    }
  };
  for await (const chunk of chunks) {
    feed(() => parser.write(chunk));
    yield* ready.splice(0);
  }
  if (!parser.isEnded) feed(() => parser.end());
  yield* ready.splice(0);
  if (type !== "FeatureCollection") throw malformed("file", "not a GeoJSON FeatureCollection");
}

/**
 * A FlatGeobuf file's features as they stream in (the `flatgeobuf` package reads its header, then
 * one feature at a time): what GIS tools export a layer of a million points to, smaller than GeoJSON.
 */
async function* flatgeobufFeatures(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FeatureInput> {
  let index = 0;
  let announced = 0;
  try {
    const headerMetaFn = (header: { featuresCount: number }) => void (announced = Number(header.featuresCount));
    for await (const feature of deserialize(Readable.toWeb(Readable.from(chunks)) as ReadableStream, { headerMetaFn })) {
      yield { where: `feature ${index}`, fields: featureFields(feature.properties ?? {}), geometry: feature.geometry };
      index += 1;
    }
    // A file cut between two features reads as a shorter one: its header says how many there are.
    if (announced > index) throw malformed(`feature ${index}`, `the file ends after ${index} of its ${announced} features`);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw malformed(index === 0 ? "file" : `feature ${index}`, `not a readable FlatGeobuf file (${(error as Error).message.slice(0, 120)})`);
  }
}

const READERS: Record<GisFormat, (chunks: AsyncIterable<Uint8Array>) => AsyncGenerator<FeatureInput>> = {
  csv: csvFeatures,
  geojson: geojsonFeatures,
  flatgeobuf: flatgeobufFeatures,
};

export function readFeatures(format: GisFormat, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<FeatureInput> {
  return READERS[format](chunks);
}

/** The format a file name or a Content-Type says. */
export function formatOf(nameOrType: string): GisFormat | undefined {
  const value = nameOrType.toLowerCase();
  if (/(\.csv$|^text\/csv\b)/.test(value)) return "csv";
  if (/(\.(geo)?json$|^application\/(geo\+)?json\b)/.test(value)) return "geojson";
  if (/(\.fgb$|^application\/(vnd\.)?flatgeobuf\b)/.test(value)) return "flatgeobuf";
  return undefined;
}
