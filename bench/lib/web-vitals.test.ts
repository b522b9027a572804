import { describe, expect, it } from 'vitest';
import { interactionToNextPaint, type Interaction } from './web-vitals.js';

const interaction = (name: string, durationMs: number): Interaction => ({
  name,
  startMs: 1000,
  durationMs,
  inputDelayMs: 10,
  processingMs: 20,
  presentationMs: durationMs - 30,
});

describe('interactionToNextPaint', () => {
  it('is the longest interaction of the page, as web-vitals reports it below 50 interactions', () => {
    expect(
      interactionToNextPaint([interaction('pointerdown', 96), interaction('click', 248), interaction('keydown', 40)]),
    ).toBe(248);
  });

  it('is 0 for a page nobody touched', () => {
    expect(interactionToNextPaint([])).toBe(0);
  });
});
