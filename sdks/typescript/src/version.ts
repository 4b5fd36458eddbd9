/** The SDK's version, sent in `User-Agent: onair-typescript/<version>`. Kept equal to package.json's. */
export const VERSION = '0.1.0';
