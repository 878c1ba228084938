"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { PERMISSIONS, type Permission, ROLE_LABEL, ROLES, type Role } from "@/lib/access/roles";
import type { WhoAmI } from "@/lib/access/schema";
import { type CreatedApiKey, createKey, createUser, listKeys, listUsers, removeUser, revokeKey, setUserRole } from "../shared/api";
import { formatTimeOrNever } from "../shared/format";
import { rereadQueries } from "../shared/reread";
import { AdminPage } from "./AdminPage";

function People({ me }: { me: WhoAmI }) {
  const client = useQueryClient();
  const users = useQuery({ queryKey: ["users"], queryFn: listUsers });
  // Removing or lowering a person revokes their keys beyond what remains: the key list changes too.
  const refresh = () => Promise.all([rereadQueries(client, { queryKey: ["users"] }), rereadQueries(client, { queryKey: ["keys"] })]);
  const create = useMutation({ mutationFn: createUser, onSuccess: refresh });
  const change = useMutation({ mutationFn: ({ id, role }: { id: string; role: Role }) => setUserRole(id, role), onSuccess: refresh });
  const remove = useMutation({ mutationFn: removeUser, onSuccess: refresh });
  const [role, setRole] = useState<Role>("dispatcher");

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    create.mutate(
      { name: String(data.get("name")), email: String(data.get("email")), password: String(data.get("password")), role },
      { onSuccess: () => form.reset() },
    );
  };
  const failure = create.error ?? change.error ?? remove.error;

  return (
    <section className="panel" aria-labelledby="people-title">
      <h2 id="people-title">People</h2>
      <form className="admin-form" onSubmit={submit} aria-label="Add a person">
        <label>Name<input name="name" required maxLength={120} /></label>
        <label>Email<input name="email" type="email" required /></label>
        <label>First password<input name="password" type="password" required minLength={12} autoComplete="new-password" /></label>
        <label>
          Role
          <select name="role" value={role} onChange={(event) => setRole(event.target.value as Role)}>
            {ROLES.map((option) => <option key={option} value={option}>{ROLE_LABEL[option]}</option>)}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>Add person</button>
      </form>
      {failure && <p role="alert" className="form-error">{failure.message}</p>}
      <table aria-label="People who may sign in">
        <thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Added</th><th /></tr></thead>
        <tbody>
          {users.data?.users.map((user) => (
            <tr key={user.id} data-user-email={user.email}>
              <td>{user.name}</td>
              <td>{user.email}</td>
              <td>
                <select aria-label={`Role of ${user.name}`} value={user.role} onChange={(event) => change.mutate({ id: user.id, role: event.target.value as Role })}>
                  {ROLES.map((option) => <option key={option} value={option}>{ROLE_LABEL[option]}</option>)}
                </select>
              </td>
              <td>{formatTimeOrNever(user.created_at)}</td>
              <td>
                {user.id !== me.id && (
                  <button type="button" onClick={() => window.confirm(`Remove ${user.name}? Their sessions end and their keys are revoked at once.`) && remove.mutate(user.id)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Keys() {
  const client = useQueryClient();
  const keys = useQuery({ queryKey: ["keys"], queryFn: listKeys });
  const users = useQuery({ queryKey: ["users"], queryFn: listUsers });
  const refresh = () => rereadQueries(client, { queryKey: ["keys"] });
  const [shown, setShown] = useState<CreatedApiKey | null>(null);
  const create = useMutation({ mutationFn: createKey, onSuccess: (key) => { setShown(key); void refresh(); } });
  const revoke = useMutation({ mutationFn: revokeKey, onSuccess: refresh });
  const [scopes, setScopes] = useState<Permission[]>(["read"]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const expires = String(data.get("expires") ?? "");
    const owner = String(data.get("owner") ?? "");
    create.mutate(
      {
        name: String(data.get("name")),
        scopes,
        ...(expires ? { expires_at: new Date(`${expires}T23:59:59`).toISOString() } : {}),
        ...(owner ? { owner_id: owner } : {}),
      },
      { onSuccess: () => form.reset() },
    );
  };
  const toggle = (scope: Permission) => setScopes((list) => (list.includes(scope) ? list.filter((s) => s !== scope) : [...list, scope]));

  return (
    <section className="panel" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys for integrations</h2>
      <form className="admin-form" onSubmit={submit} aria-label="Create an API key">
        <label>Name<input name="name" required maxLength={120} placeholder="CAD bridge" /></label>
        <fieldset>
          <legend>Scopes</legend>
          {PERMISSIONS.map((scope) => (
            <label key={scope} style={{ display: "inline-flex", gap: "0.3rem", marginRight: "0.8rem" }}>
              <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <label>Expires (optional)<input name="expires" type="date" /></label>
        <label>
          Owner
          <select name="owner" defaultValue="">
            <option value="">Me (my own key)</option>
            {users.data?.users.map((user) => <option key={user.id} value={user.id}>{user.name} (service key; {ROLE_LABEL[user.role]})</option>)}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending || scopes.length === 0}>Create key</button>
      </form>
      {create.error && <p role="alert" className="form-error">{create.error.message}</p>}
      {shown && (
        <div className="shown-once" role="status">
          <p>The key <strong>{shown.name}</strong>, shown this once (only its digest is kept):</p>
          <code data-testid="new-key">{shown.key}</code>
          <p><button type="button" onClick={() => setShown(null)}>I have stored it</button></p>
        </div>
      )}
      <table aria-label="API keys">
        <thead><tr><th>Name</th><th>Starts with</th><th>Scopes</th><th>Owner</th><th>Created</th><th>Expires</th><th>Last used</th><th>State</th><th /></tr></thead>
        <tbody>
          {keys.data?.keys.map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td><code>{key.prefix}…</code></td>
              <td>{key.scopes.join(", ")}</td>
              <td>{key.owner ? `${key.owner.name}${key.service ? " (service key)" : ""}` : "nobody (API_KEY's key)"}</td>
              <td>{formatTimeOrNever(key.created_at)} by {key.created_by}</td>
              <td>{formatTimeOrNever(key.expires_at)}</td>
              <td>{formatTimeOrNever(key.last_used_at)}</td>
              <td>{key.revoked_at ? `revoked ${formatTimeOrNever(key.revoked_at)}` : "active"}</td>
              <td>{!key.revoked_at && <button type="button" onClick={() => revoke.mutate(key.id)}>Revoke</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Administrators' page: people and their roles, API keys. */
export function AdminView({ person }: { person: WhoAmI }) {
  return (
    <AdminPage person={person} title="Mayday administration">
      <People me={person} />
      <Keys />
    </AdminPage>
  );
}
