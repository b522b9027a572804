import type { CDPSession } from 'playwright-core';

/**
 * The mid-range phone the web budgets are read on, as Chrome DevTools and Lighthouse emulate one: the CPU slowed 4× and the
 * 'Slow 4G' network (DevTools' preset: 1.6 Mbit/s down and 750 kbit/s up at 90 %, 150 ms of round trip ×
 * 3.75, the factors Lighthouse uses to turn a packet-level profile into a request-level one), on the
 * viewport of Lighthouse's mobile device (412 × 823 CSS pixels, 1.75 device pixels each, touch).
 */
export const MID_RANGE_PHONE = {
  cpuSlowdown: 4,
  network: {
    name: 'Slow 4G',
    latencyMs: 150 * 3.75,
    downloadBytesPerSecond: ((1.6 * 1000 * 1000) / 8) * 0.9,
    uploadBytesPerSecond: ((750 * 1000) / 8) * 0.9,
  },
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
} as const;

/**
 * Slows the page of `cdp` down to the phone's CPU and network (through the DevTools protocol, for this page
 * only: the stage and the other tabs keep their speed). `cacheDisabled` fetches every file again, as on the
 * first visit after a release.
 */
export async function emulateMidRangePhone(cdp: CDPSession, options: { cacheDisabled: boolean }): Promise<void> {
  const { network } = MID_RANGE_PHONE;
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: options.cacheDisabled });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: network.latencyMs,
    downloadThroughput: network.downloadBytesPerSecond,
    uploadThroughput: network.uploadBytesPerSecond,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MID_RANGE_PHONE.cpuSlowdown });
}
