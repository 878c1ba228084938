-- CreateTable
CREATE TABLE "gis_address_points" (
    "id" BIGSERIAL NOT NULL,
    "add_number" INTEGER NOT NULL,
    "addnum_pre" TEXT,
    "addnum_suf" TEXT,
    "st_predir" TEXT,
    "st_pretyp" TEXT,
    "st_name" TEXT NOT NULL,
    "st_postyp" TEXT,
    "st_posdir" TEXT,
    "unit" TEXT,
    "community" TEXT,
    "post_code" TEXT,
    "state" TEXT,
    "longitude" DOUBLE PRECISION NOT NULL,
    "latitude" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "gis_address_points_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gis_centrelines" (
    "id" BIGSERIAL NOT NULL,
    "fromaddr_l" INTEGER,
    "toaddr_l" INTEGER,
    "fromaddr_r" INTEGER,
    "toaddr_r" INTEGER,
    "parity_l" TEXT,
    "parity_r" TEXT,
    "st_predir" TEXT,
    "st_pretyp" TEXT,
    "st_name" TEXT NOT NULL,
    "st_postyp" TEXT,
    "st_posdir" TEXT,
    "community" TEXT,
    "post_code" TEXT,
    "state" TEXT,
    "coordinates" DOUBLE PRECISION[],

    CONSTRAINT "gis_centrelines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gis_layers" (
    "layer" TEXT NOT NULL,
    "features" INTEGER NOT NULL,
    "source_name" TEXT NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "gis_layers_pkey" PRIMARY KEY ("layer")
);
