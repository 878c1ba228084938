"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { GIS_LAYERS, type GisLayerName } from "@/lib/geocoding/centre/fields";
import { importGisFile, listGisLayers } from "../shared/api";
import { rereadQueries } from "../shared/reread";
import { AdminPage } from "./AdminPage";

const LAYER_LABEL: Record<GisLayerName, string> = { address_points: "Address points", centrelines: "Road centrelines" };

function GisLayers() {
  const client = useQueryClient();
  const layers = useQuery({ queryKey: ["gis-layers"], queryFn: listGisLayers });
  const [layer, setLayer] = useState<GisLayerName | "">("");
  const upload = useMutation({
    mutationFn: (file: File) => importGisFile(file, layer),
    onSuccess: () => rereadQueries(client, { queryKey: ["gis-layers"] }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("file");
    if (file instanceof File && file.size > 0) upload.mutate(file);
  };

  return (
    <section className="panel" aria-labelledby="gis-title">
      <h2 id="gis-title">The centre&apos;s GIS data</h2>
      <p>
        Address points and road centrelines in NENA NG9-1-1 field names (or OpenAddresses CSV), as CSV, GeoJSON or FlatGeobuf. A file
        replaces its layer whole; a file with a bad feature changes nothing.
      </p>
      <form className="admin-form" onSubmit={submit} aria-label="Import a GIS file">
        <label>File<input name="file" type="file" accept=".csv,.geojson,.json,.fgb" required /></label>
        <label>
          Layer
          <select value={layer} onChange={(event) => setLayer(event.target.value as GisLayerName | "")}>
            <option value="">Told by the file</option>
            {GIS_LAYERS.map((name) => <option key={name} value={name}>{LAYER_LABEL[name]}</option>)}
          </select>
        </label>
        <button type="submit" disabled={upload.isPending}>{upload.isPending ? "Importing..." : "Import"}</button>
      </form>
      <p role="status" data-testid="gis-import-result">
        {upload.isSuccess && `${LAYER_LABEL[upload.data.layer]}: ${upload.data.features.toLocaleString()} features imported.`}
      </p>
      {upload.error && <p role="alert">{upload.error.message}</p>}
      <table aria-label="GIS layers">
        <thead><tr><th>Layer</th><th>Features</th><th>File</th><th>Imported</th></tr></thead>
        <tbody>
          {GIS_LAYERS.map((name) => {
            const found = layers.data?.layers.find((entry) => entry.layer === name);
            return (
              <tr key={name}>
                <td>{LAYER_LABEL[name]}</td>
                <td>{found ? found.features.toLocaleString() : "none"}</td>
                <td>{found?.source_name ?? ""}</td>
                <td>{found ? new Date(found.imported_at * 1000).toLocaleString() : ""}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** Administrators' page: the centre's address points and centrelines, imported from a file (docs/geocoding.md). */
export function GisDataView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="GIS data">
      <GisLayers />
    </AdminPage>
  );
}
