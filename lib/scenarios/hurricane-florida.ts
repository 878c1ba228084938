import type { Scenario } from "./types";

export const hurricaneFlorida: Scenario = {
  id: "hurricane_florida",
  name: "Florida Hurricane",
  phoneAreaCodes: ["305", "786", "954", "561"],
  areas: [
    {
      name: "Miami Beach",
      center: { lat: 25.7907, lon: -80.13 },
      streets: [
        "Collins Avenue",
        "Ocean Drive",
        "Washington Avenue",
        "Alton Road",
        "Lincoln Road",
        "Indian Creek Drive",
        "Pine Tree Drive",
        "Meridian Avenue",
        "West Avenue",
        "Dade Boulevard",
      ],
    },
    {
      name: "Fort Lauderdale",
      center: { lat: 26.1224, lon: -80.1373 },
      streets: [
        "Las Olas Boulevard",
        "Andrews Avenue",
        "Federal Highway",
        "Sunrise Boulevard",
        "Broward Boulevard",
        "Seabreeze Boulevard",
        "Bayview Drive",
        "Davie Boulevard",
        "Oakland Park Boulevard",
      ],
    },
    {
      name: "West Palm Beach",
      center: { lat: 26.7153, lon: -80.0534 },
      streets: [
        "Clematis Street",
        "Flagler Drive",
        "Okeechobee Boulevard",
        "Dixie Highway",
        "Olive Avenue",
        "Australian Avenue",
        "Belvedere Road",
        "Palm Beach Lakes Boulevard",
        "Parker Avenue",
        "Datura Street",
      ],
    },
  ],
  emergencies: [
    {
      type: "flooding",
      weight: 3,
      severity: { critical: 35, high: 45, moderate: 20 },
      descriptions: [
        "storm surge flooding the ground floor of a home",
        "rising water inside a house with residents on the second floor",
        "a car stalled in deep floodwater with the driver inside",
        "water entering a ground-floor apartment",
        "a flooded street cutting off a nursing home",
      ],
    },
    {
      type: "wind_damage",
      weight: 3,
      severity: { critical: 15, high: 45, moderate: 40 },
      descriptions: [
        "a roof peeling off in the wind",
        "a tree fallen through a living room",
        "shattered windows in a high-rise condo",
        "a carport torn loose and thrown into the street",
      ],
    },
    {
      type: "power_outage",
      weight: 2,
      severity: { critical: 5, high: 30, moderate: 65 },
      descriptions: [
        "a resident on home oxygen without power",
        "a neighborhood-wide outage with traffic signals dark",
        "a power outage in an assisted-living building",
        "a generator running indoors during an outage",
      ],
    },
    {
      type: "evacuation_needed",
      weight: 2,
      severity: { critical: 30, high: 50, moderate: 20 },
      descriptions: [
        "a bedridden resident needing evacuation",
        "a family stranded by rising water asking to be evacuated",
        "residents of a mobile home needing evacuation",
        "a disabled caller unable to reach the evacuation bus",
      ],
    },
  ],
};
