-- Keep call_counts exact inside the writing transaction. Statement-level triggers with transition
-- tables: one upsert per touched combination per statement, however many rows the statement
-- writes (bulk simulation inserts). Rows are upserted in key order so concurrent writers lock
-- counter rows in the same order and cannot deadlock each other within one statement.
CREATE OR REPLACE FUNCTION "call_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "call_counts" AS c ("table_name", "simulation", "emergency_type", "severity", "status", "total")
    SELECT "table_name", "simulation", "emergency_type", "severity", "status", count(*)
    FROM new_rows
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("table_name", "simulation", "emergency_type", "severity", "status")
    DO UPDATE SET "total" = c."total" + EXCLUDED."total";
  ELSIF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT FROM new_rows) THEN
      RETURN NULL;
    END IF;
    INSERT INTO "call_counts" AS c ("table_name", "simulation", "emergency_type", "severity", "status", "total")
    SELECT "table_name", "simulation", "emergency_type", "severity", "status", sum(delta)
    FROM (
      SELECT "table_name", "simulation", "emergency_type", "severity", "status", -1 AS delta FROM old_rows
      UNION ALL
      SELECT "table_name", "simulation", "emergency_type", "severity", "status", 1 AS delta FROM new_rows
    ) AS changes
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(delta) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT ("table_name", "simulation", "emergency_type", "severity", "status")
    DO UPDATE SET "total" = c."total" + EXCLUDED."total";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "call_counts" AS c SET "total" = c."total" - gone.n
    FROM (
      SELECT "table_name", "simulation", "emergency_type", "severity", "status", count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4, 5
    ) AS gone
    WHERE (c."table_name", c."simulation", c."emergency_type", c."severity", c."status")
        = (gone."table_name", gone."simulation", gone."emergency_type", gone."severity", gone."status");
  ELSE
    DELETE FROM "call_counts";
  END IF;
  RETURN NULL;
END;
$$;
