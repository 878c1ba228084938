/** One database connection: statements run in order, on the same session. */
export interface SqlSession {
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements whole (a function body's `;` stays inside it). */
  execute(script: string): Promise<void>;
}
