import { randomInt } from "node:crypto";

/** A source of uniform numbers in [0, 1). Injected so a seed reproduces a simulation. */
export type RandomSource = () => number;

/**
 * sfc32, a small fast generator with a 128-bit state; the seed (any safe integer) fills the
 * state from its low and high 32 bits, and a warm-up mixes them.
 */
export function seededRandom(seed: number): RandomSource {
  const big = BigInt(seed);
  let a = Number(BigInt.asUintN(32, big));
  let b = Number(BigInt.asUintN(32, big >> 32n));
  let c = 0x9e3779b9;
  let d = 0x243f6a88;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

/** A generator seeded from the operating system, for requests without a seed. */
export function unseededRandom(): RandomSource {
  return seededRandom(randomInt(0, 2 ** 48 - 1));
}

/** Integer in [min, max], both inclusive. */
export function randomIntBetween(random: RandomSource, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

export function pick<T>(random: RandomSource, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** One of `items`, each chosen in proportion to `weightOf(item)`. */
export function pickWeighted<T>(random: RandomSource, items: readonly T[], weightOf: (item: T) => number): T {
  const total = items.reduce((sum, item) => sum + weightOf(item), 0);
  let point = random() * total;
  for (const item of items) {
    point -= weightOf(item);
    if (point < 0) return item;
  }
  return items[items.length - 1];
}
