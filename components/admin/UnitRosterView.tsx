"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { WhoAmI } from "@/lib/access/schema";
import { UNIT_TYPES } from "@/lib/units/states";
import { createUnit, importUnits, setUnitInService } from "../shared/api";
import { unitStateLabel, useUnits } from "../shared/use-units";
import { rereadQueries } from "../shared/reread";
import { AdminPage } from "./AdminPage";

const optionalNumber = (value: FormDataEntryValue | null) => (value === null || value === "" ? undefined : Number(value));
const optionalText = (value: FormDataEntryValue | null) => (value === null || value === "" ? undefined : String(value));

function Roster() {
  const client = useQueryClient();
  const units = useUnits();
  const refresh = () => rereadQueries(client, { queryKey: ["units"] });
  const create = useMutation({ mutationFn: createUnit, onSuccess: refresh });
  const upload = useMutation({ mutationFn: importUnits, onSuccess: refresh });
  const service = useMutation({ mutationFn: ({ id, inService }: { id: string; inService: boolean }) => setUnitInService(id, inService), onSuccess: refresh });
  const [csv, setCsv] = useState("");

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      call_sign: String(form.get("call_sign") ?? ""),
      type: String(form.get("type") ?? ""),
      name: optionalText(form.get("name")),
      station: optionalText(form.get("station")),
      station_latitude: optionalNumber(form.get("station_latitude")),
      station_longitude: optionalNumber(form.get("station_longitude")),
    });
  };
  const readFile = async (file: File | undefined) => setCsv(file ? await file.text() : "");

  return (
    <>
      <section className="panel" aria-labelledby="unit-add-title">
        <h2 id="unit-add-title">Add a unit</h2>
        <form className="admin-form" onSubmit={add} aria-label="Add a unit">
          <label>Call sign<input name="call_sign" required maxLength={40} /></label>
          <label>
            Type
            <select name="type" defaultValue="engine">
              {UNIT_TYPES.map((type) => <option key={type} value={type}>{type}</option>)}
            </select>
          </label>
          <label>Name<input name="name" maxLength={120} /></label>
          <label>Station<input name="station" maxLength={120} /></label>
          <label>Station latitude<input name="station_latitude" type="number" step="any" min={-90} max={90} /></label>
          <label>Station longitude<input name="station_longitude" type="number" step="any" min={-180} max={180} /></label>
          <button type="submit" disabled={create.isPending}>Add</button>
        </form>
        {create.error && <p role="alert">{create.error.message}</p>}
      </section>
      <section className="panel" aria-labelledby="unit-import-title">
        <h2 id="unit-import-title">Import a roster</h2>
        <p>
          CSV with a header line: <code>call_sign, type, name, station, station_latitude, station_longitude, in_service</code>{" "}
          (the first two required). Every line is added or none.
        </p>
        <form
          className="admin-form"
          aria-label="Import a roster"
          onSubmit={(event) => {
            event.preventDefault();
            if (csv.trim()) upload.mutate(csv);
          }}
        >
          <label>File<input type="file" accept=".csv,text/csv" onChange={(event) => void readFile(event.target.files?.[0])} /></label>
          <label>Or the CSV itself<textarea name="csv" rows={4} value={csv} onChange={(event) => setCsv(event.target.value)} /></label>
          <button type="submit" disabled={upload.isPending}>Import</button>
        </form>
        <p role="status" data-testid="unit-import-result">{upload.isSuccess && `${upload.data.created.toLocaleString()} units added.`}</p>
        {upload.error && <p role="alert">{upload.error.message}</p>}
      </section>
      <section className="panel" aria-labelledby="unit-roster-title">
        <h2 id="unit-roster-title">Roster</h2>
        {service.error && <p role="alert">{service.error.message}</p>}
        <table aria-label="Units">
          <thead><tr><th>Call sign</th><th>Name</th><th>Type</th><th>Station</th><th>State</th><th>In service</th></tr></thead>
          <tbody>
            {(units.data?.units ?? []).map((unit) => (
              <tr key={unit.id} data-unit-id={unit.id}>
                <td>{unit.call_sign}</td>
                <td>{unit.name}</td>
                <td>{unit.type}</td>
                <td>{unit.station?.name ?? ""}</td>
                <td>{unitStateLabel(unit.state)}</td>
                <td>
                  <button type="button" disabled={service.isPending} onClick={() => service.mutate({ id: unit.id, inService: !unit.in_service })}>
                    {unit.in_service ? "Take out of service" : "Put in service"}
                    <span className="sr-only"> {unit.call_sign}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** Administrators' page: the unit roster, added one by one or from a CSV, put in or out of service (docs/units.md, "Roster"). */
export function UnitRosterView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="Units">
      <Roster />
    </AdminPage>
  );
}
