import { fnvHash } from '../text/fnv-hash.js';
import { seededRandom } from '../text/seeded-random.js';

interface Disc {
  x: number;
  y: number;
  radius: number;
  colour: [number, number, number];
}

/**
 * A prompt-seeded RGB picture: a two-colour gradient at a seeded angle, seeded stripes, and three discs. The
 * same prompt and size always give the same pixels.
 */
export function imagePattern(prompt: string, width: number, height: number): Uint8Array {
  const random = seededRandom(fnvHash(prompt));
  const colour = (): [number, number, number] => [
    Math.floor(random() * 256),
    Math.floor(random() * 256),
    Math.floor(random() * 256),
  ];
  const from = colour();
  const to = colour();
  const angle = random() * Math.PI * 2;
  const stripes = 3 + Math.floor(random() * 12);
  const scale = Math.max(width, height);
  const discs: Disc[] = Array.from({ length: 3 }, () => ({
    x: random() * width,
    y: random() * height,
    radius: (0.08 + random() * 0.22) * scale,
    colour: colour(),
  }));
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = Math.min(
        1,
        Math.max(0, 0.5 + ((x - width / 2) * cos + (y - height / 2) * sin) / scale),
      );
      const shade = 0.8 + 0.2 * Math.sin(t * stripes * Math.PI * 2);
      let red = (from[0] + (to[0] - from[0]) * t) * shade;
      let green = (from[1] + (to[1] - from[1]) * t) * shade;
      let blue = (from[2] + (to[2] - from[2]) * t) * shade;
      for (const disc of discs) {
        const dx = x - disc.x;
        const dy = y - disc.y;
        if (dx * dx + dy * dy < disc.radius * disc.radius) [red, green, blue] = disc.colour;
      }
      const offset = (y * width + x) * 3;
      pixels[offset] = red;
      pixels[offset + 1] = green;
      pixels[offset + 2] = blue;
    }
  }
  return pixels;
}
