/** Every use case, once (./operation.ts), and the runner every entry point calls them through (./runner.ts). */
export * from './hook-post.js';
export * from './inputs.js';
export * from './live.js';
export * from './operation.js';
export * from './playout.js';
export * from './runner.js';
export type { Services } from './services.js';
export * from './paging.js';
export * from './webhooks.js';
export * from './hook-posts.js';
export * from './incoming-hooks.js';
export * from './channels.js';
export * from './events.js';
export * from './keys.js';
export * from './scenes.js';
export * from './scene-versions.js';
export * from './templates.js';
