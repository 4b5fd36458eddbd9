/**
 * @onair/protocol: what the server, the output page, the dashboard and the TypeScript SDK share. No Node imports:
 * it is bundled into browsers. The order below is also the order `npm run sdk:generate` writes the modules into
 * the SDK's single generated copy (sdks/typescript/src/generated/protocol.ts), so a module comes after those
 * whose values it uses.
 */
export * from './actor.js';
export * from './close-codes.js';
export * from './rules.js';
export * from './asset-refs.js';
export * from './error-catalogue.js';
export * from './scene.js';
export * from './ograf-export.js';
export * from './rundown.js';
export * from './outputs.js';
export * from './sources.js';
export * from './messages.js';
export * from './parse-server-message.js';
export * from './backoff.js';
export * from './frame-reducer.js';
