import { withDatabase } from "../db/with-database";

/** Call-store work, its database failures answered as DATABASE_ERROR (lib/db/with-database.ts). */
export const withCallStore = withDatabase;
