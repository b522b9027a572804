import { EventEmitter } from 'node:events';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/**
 * What cognito-local prints, read back from its log file: the codes it would have e-mailed (sign-up
 * confirmation, forgot password, temporary passwords) and its last lines, for a failed start's message.
 * cognito-local writes the file itself (its own descriptor), so the codes are there at once even when the
 * stage's event loop is busy.
 */

/** A code cognito-local would have sent by e-mail or SMS. */
export interface DeliveredCode {
  /** The user's Username (with e-mail sign-in, its sub). */
  readonly username: string;
  /** Where it would have gone (the e-mail address or phone number), when printed. */
  readonly destination: string | null;
  readonly code: string;
  /** The operation that sent it (ForgotPassword, SignUp, AdminCreateUser, ...), when printed. */
  readonly operation: string | null;
  readonly at: Date;
}

export interface CognitoLog {
  /** Every code delivered since the watch began, oldest first. */
  codes(): readonly DeliveredCode[];
  /** Latest code sent to a user, by Username, sub or destination (e-mail), case-insensitive. */
  lastCodeFor(user: string): string | undefined;
  /** Waits for a code sent to the user after `since` (default: now); cognito-local prints it asynchronously. */
  waitForCode(user: string, options?: { since?: Date; timeoutMs?: number }): Promise<string>;
  /** The last 40 lines read. */
  recentLines(): readonly string[];
  /** Stops reading the file. */
  close(): void;
}

/** Reads the lines appended to `logFile` from now on, every `pollMs` and before each question about codes. */
export function watchCognitoLog(logFile: string, pollMs = 100): CognitoLog {
  const delivered: DeliveredCode[] = [];
  const recent: string[] = [];
  const events = new EventEmitter();
  const parser = new CodeParser((code) => {
    delivered.push(code);
    events.emit('code', code);
  });
  const poll = tailLines(logFile, (line) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
    parser.push(line);
  });
  const timer = setInterval(poll, pollMs);
  timer.unref();

  const matches = (code: DeliveredCode, user: string): boolean => {
    const wanted = user.toLowerCase();
    return code.username.toLowerCase() === wanted || code.destination?.toLowerCase() === wanted;
  };

  return {
    codes: () => [...delivered],
    lastCodeFor: (user) => {
      poll();
      return delivered.findLast((code) => matches(code, user))?.code;
    },
    waitForCode: (user, options = {}) => {
      poll();
      const since = options.since ?? new Date();
      const found = delivered.findLast((code) => matches(code, user) && code.at >= since);
      if (found) return Promise.resolve(found.code);
      return new Promise<string>((resolve, reject) => {
        const onCode = (code: DeliveredCode): void => {
          if (!matches(code, user)) return;
          clearTimeout(waited);
          events.off('code', onCode);
          resolve(code.code);
        };
        const waited = setTimeout(() => {
          events.off('code', onCode);
          reject(new Error(`cognito-local no entregó ningún código para ${user}`));
        }, options.timeoutMs ?? 5_000);
        events.on('code', onCode);
      });
    },
    recentLines: () => [...recent],
    close: () => clearInterval(timer),
  };
}

/** Recognises the boxes cognito-local prints for each code it would deliver. */
class CodeParser {
  private current: { operation: string | null; username?: string; destination?: string } | null = null;

  constructor(private readonly onCode: (code: DeliveredCode) => void) {}

  push(line: string): void {
    if (line.includes('Confirmation Code Delivery')) {
      this.current = { operation: this.current?.operation ?? null };
      return;
    }
    // The box starts on the log line of the operation: "[time] INFO: <reqId> <Target> ╭───╮".
    const header = /INFO:\s+\S+\s+(\S+)\s+╭/.exec(line);
    if (header) {
      this.current = { operation: header[1] === 'NONE' ? null : (header[1] ?? null) };
      return;
    }
    if (!this.current) return;
    const field = /^\s*│\s*(Username|Destination|Code):\s+(.*?)\s*│\s*$/.exec(line);
    if (field) {
      const [, name, value = ''] = field;
      if (name === 'Username') this.current.username = value;
      else if (name === 'Destination') this.current.destination = value;
      else if (this.current.username) {
        this.onCode({
          username: this.current.username,
          destination: this.current.destination ?? null,
          code: value,
          operation: this.current.operation,
          at: new Date(),
        });
      }
      return;
    }
    if (/^\s*╰/.test(line)) this.current = null;
  }
}

/**
 * Reads the lines appended to `file` since the call that made it, on each call of the function it returns
 * (partial last lines wait for their end).
 */
function tailLines(file: string, onLine: (line: string) => void): () => void {
  let offset = statSync(file).size;
  let carry = '';
  const buffer = Buffer.alloc(64 * 1024);
  const decoder = new StringDecoder('utf8');
  return () => {
    const fd = openSync(file, 'r');
    try {
      for (;;) {
        const read = readSync(fd, buffer, 0, buffer.length, offset);
        if (read === 0) break;
        offset += read;
        const lines = (carry + decoder.write(buffer.subarray(0, read))).split('\n');
        carry = lines.pop() ?? '';
        for (const line of lines) onLine(stripAnsi(line));
      }
    } finally {
      closeSync(fd);
    }
  };
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '').replace(/\r$/, '');
}
