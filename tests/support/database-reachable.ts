import { admin, serverUrl } from "../setup/test-database";

/**
 * Refuses new connections to this file's PostgreSQL database and cuts the open ones (down, as far
 * as the app can tell), or lets them in again. PostgreSQL only: PGlite runs in the test's process.
 */
export async function setDatabaseReachable(reachable: boolean): Promise<void> {
  const database = new URL(process.env.DATABASE_URL!).pathname.slice(1);
  await admin(serverUrl()!, async (client) => {
    await client.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS ${reachable}`);
    if (!reachable) await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [database]);
  });
}
