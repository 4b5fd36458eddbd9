/** The channel operations every entry point calls (./operation.ts). */
export * from './inputs.js';
export * from './live.js';
export * from './operation.js';
export * from './playout.js';
export * from './hook-post.js';
