import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { storeContract } from './store.contract.js';

storeContract('SqliteStore', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'onair-store-'));
  return {
    open: async () => new SqliteStore({ dataDir, synchronous: 'full' }),
    dispose: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
});
