/** Upgrade scripts: none yet. The list only ever grows: Companion runs each script once per connection, by index. */
import type { CompanionStaticUpgradeScript } from '@companion-module/base';
import type { OnairConfig, OnairSecrets } from './config.js';

export const UpgradeScripts: CompanionStaticUpgradeScript<OnairConfig, OnairSecrets>[] = [];
