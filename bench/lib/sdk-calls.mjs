// Counts the AWS SDK calls a process makes, by service and command, for the benchmarks (the round trips
// per document of 'Cargar ZIP'). Loaded into the local stage's process by run.ts when BENCH_SDK_CALLS_FILE is set:
// `--import ./bench/lib/sdk-calls.mjs` (plain JavaScript: it loads before tsx). Every client of the SDK v3 sends
// through @smithy/core's Client#send; the counts are written to the file as JSON twice a second while they change.
import { renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const file = process.env.BENCH_SDK_CALLS_FILE;
if (file) {
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  const { Client } = require('@smithy/core/client');
  const counts = {};
  let changed = false;
  const send = Client.prototype.send;
  Client.prototype.send = function countedSend(command, ...rest) {
    const service = this.config?.serviceId ?? this.constructor.name.replace(/Client$/, '');
    const name = `${service}.${command.constructor.name.replace(/Command$/, '')}`;
    counts[name] = (counts[name] ?? 0) + 1;
    changed = true;
    return send.call(this, command, ...rest);
  };
  const write = () => {
    if (!changed) return;
    changed = false;
    // Whole or not at all: the suite may read it at any moment.
    writeFileSync(`${file}.next`, JSON.stringify(counts));
    renameSync(`${file}.next`, file);
  };
  setInterval(write, 500).unref();
  process.on('exit', write);
}
