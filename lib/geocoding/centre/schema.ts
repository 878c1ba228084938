import { z } from "zod";
import { queryParameter } from "../../query-parameters";
import { GIS_LAYERS } from "./fields";

export const gisImportQueryParameters = {
  layer: queryParameter({
    schema: z.enum(GIS_LAYERS).optional(),
    description: "The layer the file holds; unset: told by its first feature (a line, or range fields, makes centrelines)",
    label: "Invalid layer",
    message: `layer must be one of: ${GIS_LAYERS.join(", ")}`,
  }),
  name: queryParameter({
    schema: z.string().max(200).optional(),
    description: "The file's name, kept with the layer",
    label: "Invalid name",
    message: "name must be at most 200 characters",
  }),
};

export const gisLayerSchema = z.object({
  layer: z.enum(GIS_LAYERS),
  features: z.number().int(),
  source_name: z.string(),
  imported_at: z.number().int().meta({ description: "Unix seconds" }),
});

export const gisLayerListSchema = z.object({ layers: z.array(gisLayerSchema) });

export const gisImportResultSchema = z.object({ layer: z.enum(GIS_LAYERS), features: z.number().int() });

export const gisImportBodySchema = z.string().meta({
  description:
    "The whole file: CSV (`text/csv`, a header row; NENA NG9-1-1 field names with lon/lat columns or a WKT LINESTRING, " +
    "or OpenAddresses' LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE) or a GeoJSON FeatureCollection " +
    "(`application/geo+json` or `application/json`) of Points or LineStrings with NENA properties, or a FlatGeobuf file " +
    "(`application/flatgeobuf`) of the same.",
});

export type GisLayerView = z.infer<typeof gisLayerSchema>;
