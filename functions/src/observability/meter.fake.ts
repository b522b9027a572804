import type { Meter, MetricName } from './meter.js';

/** A Meter that keeps what was counted, in order, for the tests' assertions. */
export function fakeMeter() {
  const counted: { name: MetricName; value: number }[] = [];
  const meter: Meter = {
    count(name, value) {
      counted.push({ name, value });
    },
  };
  return { meter, counted };
}
