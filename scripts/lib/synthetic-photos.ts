/**
 * What the seed and the benchmarks draw their photos of cracked concrete with: a seeded random generator (so every run
 * makes the same bytes; the kit's) and branching cracks as random walks in SVG, to composite over a surface with sharp.
 */

export { seededRandom } from '../../services/kit/src/testing/seeded-random.js';

/** How the cracks are drawn: how many, their steps and step lengths (px), their stroke width and how often they branch. */
export interface CrackStyle {
  cracks: number;
  steps: { min: number; range: number };
  stepLength: { min: number; range: number };
  stroke: { min: number; range: number };
  branchChance: number;
}

/** Five long cracks across a 12 MP photo. */
export const PHONE_PHOTO_CRACKS: CrackStyle = {
  cracks: 5,
  steps: { min: 60, range: 60 },
  stepLength: { min: 20, range: 50 },
  stroke: { min: 3, range: 9 },
  branchChance: 0.04,
};

/**
 * An SVG of `style.cracks` cracks over `width` × `height`: each a random walk from a random point that turns a little
 * at every step and now and then branches (two levels deep at most) with a stroke half as wide.
 */
export function cracksSvg(random: () => number, width: number, height: number, style: CrackStyle = PHONE_PHOTO_CRACKS): string {
  const paths: string[] = [];
  const walk = (x: number, y: number, angle: number, steps: number, stroke: number, depth: number) => {
    const points = [`${x.toFixed(0)},${y.toFixed(0)}`];
    for (let step = 0; step < steps; step += 1) {
      angle += (random() - 0.5) * 0.9;
      const length = style.stepLength.min + random() * style.stepLength.range;
      x += Math.cos(angle) * length;
      y += Math.sin(angle) * length;
      points.push(`${x.toFixed(0)},${y.toFixed(0)}`);
      if (depth < 2 && random() < style.branchChance) walk(x, y, angle + (random() < 0.5 ? -1 : 1) * (0.5 + random()), Math.floor(steps / 3), stroke * 0.5, depth + 1);
    }
    paths.push(`<polyline points="${points.join(' ')}" fill="none" stroke="#1c1915" stroke-width="${stroke.toFixed(1)}" stroke-linejoin="round" stroke-opacity="0.85"/>`);
  };
  for (let crack = 0; crack < style.cracks; crack += 1) {
    walk(random() * width, random() * height, random() * Math.PI * 2, style.steps.min + Math.floor(random() * style.steps.range), style.stroke.min + random() * style.stroke.range, 0);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${paths.join('')}</svg>`;
}
