-- Keep call_hour_counts exact inside the writing transaction, as call_counts is (migration
-- call_counts): statement-level triggers with transition tables, one upsert per touched
-- combination per statement, in key order so concurrent writers lock counter rows in one order.
-- Hours are UTC hours of occurred_at.
CREATE OR REPLACE FUNCTION "call_hour_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "call_hour_counts" AS c ("hour", "table_name", "simulation", "emergency_type", "severity", "status", "total")
    SELECT date_trunc('hour', "occurred_at", 'UTC'), "table_name", "simulation", "emergency_type", "severity", "status", count(*)
    FROM new_rows
    GROUP BY 1, 2, 3, 4, 5, 6
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("hour", "table_name", "simulation", "emergency_type", "severity", "status")
    DO UPDATE SET "total" = c."total" + EXCLUDED."total";
  ELSIF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT FROM new_rows) THEN
      RETURN NULL;
    END IF;
    INSERT INTO "call_hour_counts" AS c ("hour", "table_name", "simulation", "emergency_type", "severity", "status", "total")
    SELECT "hour", "table_name", "simulation", "emergency_type", "severity", "status", sum(delta)
    FROM (
      SELECT date_trunc('hour', "occurred_at", 'UTC') AS "hour", "table_name", "simulation", "emergency_type", "severity", "status", -1 AS delta FROM old_rows
      UNION ALL
      SELECT date_trunc('hour', "occurred_at", 'UTC') AS "hour", "table_name", "simulation", "emergency_type", "severity", "status", 1 AS delta FROM new_rows
    ) AS changes
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(delta) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("hour", "table_name", "simulation", "emergency_type", "severity", "status")
    DO UPDATE SET "total" = c."total" + EXCLUDED."total";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "call_hour_counts" AS c SET "total" = c."total" - gone.n
    FROM (
      SELECT date_trunc('hour', "occurred_at", 'UTC') AS "hour", "table_name", "simulation", "emergency_type", "severity", "status", count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6
    ) AS gone
    WHERE (c."hour", c."table_name", c."simulation", c."emergency_type", c."severity", c."status")
        = (gone."hour", gone."table_name", gone."simulation", gone."emergency_type", gone."severity", gone."status");
  ELSE
    DELETE FROM "call_hour_counts";
  END IF;
  RETURN NULL;
END;
$$;
