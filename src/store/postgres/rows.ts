/** The Postgres store's rows are the shared ones (../record-rows.ts); this adds the channel columns it selects. */
export * from '../record-rows.js';

export const CHANNEL_COLUMNS = `id, org_id, name, fps, width, height, output_token, created_at, updated_at,
  program, preview, frame, live_updated_at`;
