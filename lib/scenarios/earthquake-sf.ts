import type { Scenario } from "./types";

export const earthquakeSf: Scenario = {
  id: "earthquake_sf",
  name: "San Francisco Earthquake",
  phoneAreaCodes: ["415", "628"],
  areas: [
    {
      name: "Marina District",
      center: { lat: 37.8037, lon: -122.4368 },
      streets: [
        "Chestnut Street",
        "Lombard Street",
        "Marina Boulevard",
        "Fillmore Street",
        "Divisadero Street",
        "Scott Street",
        "Beach Street",
        "Bay Street",
        "Cervantes Boulevard",
        "Avila Street",
      ],
    },
    {
      name: "Mission District",
      center: { lat: 37.7599, lon: -122.4148 },
      streets: [
        "Mission Street",
        "Valencia Street",
        "Guerrero Street",
        "Dolores Street",
        "16th Street",
        "24th Street",
        "Folsom Street",
        "Harrison Street",
        "South Van Ness Avenue",
        "Capp Street",
      ],
    },
    {
      name: "Financial District",
      center: { lat: 37.7946, lon: -122.3999 },
      streets: [
        "Market Street",
        "Montgomery Street",
        "California Street",
        "Sansome Street",
        "Battery Street",
        "Front Street",
        "Pine Street",
        "Bush Street",
        "Kearny Street",
        "Sacramento Street",
      ],
    },
  ],
  emergencies: [
    {
      type: "building_collapse",
      weight: 2,
      severity: { critical: 70, high: 25, moderate: 5 },
      descriptions: [
        "a soft-story apartment building collapsed onto the street",
        "the facade of an office building fallen onto the sidewalk",
        "a partial collapse of a parking garage",
        "a corner store whose upper floor caved in",
      ],
    },
    {
      type: "gas_leak",
      weight: 2,
      severity: { critical: 55, high: 35, moderate: 10 },
      descriptions: [
        "a ruptured gas main under the street",
        "a strong smell of gas in an apartment lobby",
        "a gas line broken where the house shifted off its foundation",
        "gas hissing from a cracked pipe in a basement",
      ],
    },
    {
      type: "trapped_person",
      weight: 2,
      severity: { critical: 80, high: 18, moderate: 2 },
      descriptions: [
        "a person trapped under a collapsed wall",
        "people trapped in a stalled elevator",
        "a resident pinned under furniture in a damaged flat",
        "a worker trapped in a stairwell blocked by rubble",
      ],
    },
    {
      type: "medical_injuries",
      weight: 3,
      severity: { critical: 35, high: 45, moderate: 20 },
      descriptions: [
        "cuts and a broken arm from falling shelves",
        "a head injury from falling masonry",
        "a fall down the stairs during the shaking",
        "chest pain after the main shock",
        "crush injuries to a leg from a fallen bookcase",
      ],
    },
  ],
};
