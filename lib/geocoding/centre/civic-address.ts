import type { CivicAddress } from "../types";
import type { FeaturePlace, Street, WrittenNumber } from "./centre-index";
import { standardStreet, streetLabel } from "./usps";

/**
 * The record the centre's GIS matched as civic address elements (docs/geocoding.md, "What a match
 * keeps"), every NENA field Mayday imports as the data writes it: `AddNum_Pre` HNP, `Add_Number`
 * HNO, `AddNum_Suf` HNS, `St_PreDir` PRD, `St_PreTyp` STP, `St_Name` RD, `St_PosTyp` STS,
 * `St_PosDir` POD, `Unit` UNIT, `Post_Comm` (else `Inc_Muni`) A3, `Post_Code` PC, `State` A1, and
 * `country` US (the data model is the United States'). An address point's own number, unit and
 * place; a street's (interpolated, a crossing's first street, a street's middle) its first
 * feature's place, and the number said when one was placed along it.
 */
export function civicOfMatch(street: Street, place: FeaturePlace, number?: WrittenNumber): CivicAddress {
  const { written } = street;
  const elements: CivicAddress = {
    country: "US",
    A1: place.state ?? undefined,
    A3: place.community ?? undefined,
    PRD: written.stPreDir ?? undefined,
    STP: written.stPreTyp ?? undefined,
    RD: written.stName,
    STS: written.stPosTyp ?? undefined,
    POD: written.stPosDir ?? undefined,
    HNP: number?.prefix,
    HNO: number === undefined ? undefined : String(number.number),
    HNS: number?.suffix,
    PC: place.postCode ?? undefined,
    UNIT: number?.unit,
  };
  return Object.fromEntries(Object.entries(elements).filter(([, value]) => value !== undefined && value !== "")) as CivicAddress;
}

/**
 * The standard form of a matched address, shown on the dashboard beside the caller's words and
 * stored as the call's `location_matched`: the house number with its prefix and suffix, the street
 * in Publication 28 form ("W Elm Ln", "US Hwy 19"), the community, then the unit ("725 W Elm Ln,
 * Springfield (unit 2)"). One formatter: the EIDO's civic address holds the same record.
 */
export function matchedAddressLabel(civic: CivicAddress): string {
  const street = streetLabel(standardStreet({ preDir: civic.PRD, preType: civic.STP, name: civic.RD ?? "", postType: civic.STS, postDir: civic.POD }));
  const prefix = civic.HNP ? `${civic.HNP.toUpperCase()}${/\d$/.test(civic.HNP) ? "-" : ""}` : "";
  // "525 1/2" keeps its space; "12B" none.
  const suffix = civic.HNS ? (/\d/.test(civic.HNS) ? ` ${civic.HNS}` : civic.HNS.toUpperCase()) : "";
  const number = civic.HNO ? `${prefix}${civic.HNO}${suffix} ` : "";
  return `${number}${street}${civic.A3 ? `, ${civic.A3}` : ""}${civic.UNIT ? ` (unit ${civic.UNIT.toUpperCase()})` : ""}`;
}
