import { loadLocalConfig } from './config.js';
import { advanceStageClock, parseClockAdvance, resetStageClock, stageClockStatus } from './stage-clock.js';

/**
 * `npm run clock` shows the local stage's clock; `npm run clock -- +8d` moves it forward (days, hours or minutes);
 * `npm run clock -- reset` puts it back on real time. The running stage reads the change at once (docs/local-stage.md).
 */
async function main(argv: readonly string[]): Promise<void> {
  const { dataDir } = loadLocalConfig();
  const [command, ...rest] = argv;
  if (rest.length > 0) throw new Error('Indique un solo avance (p. ej. +8d) o «reset».');
  if (command === 'reset') await resetStageClock(dataDir);
  else if (command !== undefined) await advanceStageClock(dataDir, parseClockAdvance(command));
  console.log(stageClockStatus(dataDir));
}

main(process.argv.slice(2)).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
