/** The process logger: readable lines on a terminal, JSON (one object a line) everywhere else. */
import { pino, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

export function createLogger(level = 'info'): Logger {
  if (process.stdout.isTTY) {
    // In-process pretty printing, only on a terminal where volume is low: no worker thread to
    // start or to flush at exit.
    return pino({ level }, prettyStream({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  }
  // Synchronous writes: every line is out before process.exit(), and a closed stdout (the log
  // reader died) is noticed at once. pino's asynchronous default then spins forever in its
  // exit-time flushSync on EPIPE, leaving a server that ignores SIGTERM.
  return pino({ level }, pino.destination({ dest: 1, sync: true }));
}
