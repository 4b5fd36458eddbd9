export * from './messages.js';
export * from './scene.js';
