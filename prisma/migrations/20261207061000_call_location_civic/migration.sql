-- The record the centre's GIS matched a call's location to, as civic address elements (RFC 5139
-- names: HNO, PRD, RD, STS, A3, A1, PC, country...; docs/geocoding.md, "What a match keeps"), as
-- the GIS held it when the call was placed: a later import does not change what the call said.
-- Null when another source placed the point. The EIDO's civic address is built from it.
ALTER TABLE "calls" ADD COLUMN "location_civic" JSONB;
