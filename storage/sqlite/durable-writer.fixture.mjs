// Child process of the kill -9 test in sqlite-store.test.ts. Opens the store at argv[2] and creates
// keys forever from 16 concurrent writers (so kills also land inside group-commit batches),
// printing each key on its own line once its create has been acknowledged. The parent kills it
// mid-stream and checks that every printed key survived.
//
// It runs the compiled store: `npm test` builds dist/ before vitest runs.
import { openSqliteStore } from '../../dist/storage/sqlite/sqlite-store.js';

const store = await openSqliteStore(process.argv[2], { compactIntervalMs: 0 });
const value = 'x'.repeat(1000);
let next = 0;

async function writer() {
  for (;;) {
    const key = `/registry/durability/k${next++}`;
    await store.create(key, value);
    // Synchronous for pipes on Linux: a printed line is an acknowledged write.
    process.stdout.write(`${key}\n`);
  }
}

for (let i = 0; i < 16; i += 1) void writer();
