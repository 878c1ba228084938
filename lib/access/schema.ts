import { z } from "zod";
import { queryParameter } from "../query-parameters";
import { parseWith } from "../domain-error";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../vocabulary";
import { PERMISSIONS, ROLES } from "./roles";

/** Request and answer schemas of sign-in, first run, people and keys (lib/http/endpoints.ts). */

const email = z.email().max(254).transform((value) => value.toLowerCase());
const password = z.string().min(MIN_PASSWORD_LENGTH).max(MAX_PASSWORD_LENGTH);
const personName = z.string().trim().min(1).max(120);

/** zod's first issue as the documented 400, naming the field. */

export const signInSchema = z.object({ email, password: z.string().min(1).max(MAX_PASSWORD_LENGTH) });
export type SignInRequest = z.output<typeof signInSchema>;
export const parseSignIn = (body: unknown) => parseWith(signInSchema, body);

export const newPersonSchema = z.object({
  name: personName,
  email,
  password: password.meta({ description: `${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters` }),
});
export type NewPerson = z.output<typeof newPersonSchema>;
export const parseNewPerson = (body: unknown) => parseWith(newPersonSchema, body);

export const createUserSchema = newPersonSchema.extend({ role: z.enum(ROLES) });
export type CreateUserRequest = z.output<typeof createUserSchema>;
export const parseCreateUser = (body: unknown) => parseWith(createUserSchema, body);

export const updateUserSchema = z.object({ role: z.enum(ROLES) });
export const parseUpdateUser = (body: unknown) => parseWith(updateUserSchema, body);

export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
});
export type UserView = z.infer<typeof userSchema>;
export const userListSchema = z.object({ users: z.array(userSchema) });

/** Who the request is from: the dashboard's header and what it offers. */
export const whoAmISchema = z.object({
  kind: z.enum(["user", "key"]),
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: z.enum(ROLES).nullable().meta({ description: "A person's role; null for a key" }),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type WhoAmI = z.infer<typeof whoAmISchema>;

export const setupStateSchema = z.object({
  needed: z.boolean().meta({ description: "True while no administrator exists: the dashboard offers to create the first" }),
});

export const createKeySchema = z.object({
  name: z.string().trim().min(1).max(120),
  scopes: z.array(z.enum(PERMISSIONS)).min(1).transform((scopes) => [...new Set(scopes)]),
  expires_at: z.iso.datetime({ offset: true }).optional().refine((value) => value === undefined || Date.parse(value) > Date.now(), {
    message: "must be in the future",
  }),
  owner_id: z.string().min(1).max(64).optional().meta({
    description:
      "A service key's owner: the person answerable for it, whose role its scopes must fit. Omitted: the key belongs to whoever makes it " +
      "(the owner of the key that makes it; nobody for the environment's API_KEY). Removing the owner revokes it; lowering them revokes it when its scopes exceed the new role.",
  }),
});
export type CreateKeyRequest = z.output<typeof createKeySchema>;
export const parseCreateKey = (body: unknown) => parseWith(createKeySchema, body);

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: "The key's first characters, to tell keys apart" }),
  scopes: z.array(z.enum(PERMISSIONS)),
  owner: z
    .object({ id: z.string(), name: z.string() })
    .nullable()
    .meta({ description: "The person the key belongs to (their name when the key was made); null for a key of the environment's API_KEY" }),
  service: z.boolean().meta({ description: "A service key, its owner named by an administrator (else the key of whoever made it)" }),
  created_by: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  last_used_at: z.string().nullable().meta({ description: "Last use, to the minute (written at most once a minute)" }),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;
export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().meta({ description: "The key itself: shown this once, never again (only its digest is kept)" }),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

export const ssoQueryParameters = {
  next: queryParameter({
    schema: z.string().max(2000).optional(),
    description: "The page to return to after signing in: a path on this site (anything else returns to /)",
    label: "Invalid next",
    message: "next must be a path of at most 2000 characters",
  }),
};
