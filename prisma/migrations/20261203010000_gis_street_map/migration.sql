-- The centre's own street map (lib/geocoding/centre/streets.ts, docs/dashboard.md "Street map"):
-- the viewport's centrelines through a GiST index on each line's bounding box, and its address
-- points through one on their point, so a view costs what it shows, not the county's whole layer.
-- Both are PostgreSQL's built-in geometric types (no PostGIS), on PGlite too.
ALTER TABLE "gis_centrelines" ADD COLUMN "bounds" box;
UPDATE "gis_centrelines" SET "bounds" = (
  SELECT box(point(min(coordinates[i]), min(coordinates[i + 1])), point(max(coordinates[i]), max(coordinates[i + 1])))
  FROM generate_series(1, array_length(coordinates, 1) - 1, 2) AS i
);
CREATE INDEX "gis_centrelines_bounds_idx" ON "gis_centrelines" USING gist ("bounds");
CREATE INDEX "gis_address_points_point_idx" ON "gis_address_points" USING gist (point("longitude", "latitude"));
