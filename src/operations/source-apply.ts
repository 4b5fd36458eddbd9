/**
 * A data source's values applied to its channel (docs/data-sources.md, "Applied like any change"): the incoming
 * hooks' channel operation (applyHookPost), run as the source, a caller that may only set inputs on its own channel.
 * So it is counted on the channel's updates bucket like any change, and its events carry `source: "data_source"`
 * and the source as their actor.
 */
import type { Principal } from '../auth/permissions.js';
import type { MappedChange } from '../incoming-hooks/hook-mapping.js';
import type { SourceRecord } from '../store/source-store.js';
import { applyHookPost } from './hook-post.js';
import type { Caller } from './operation.js';
import type { Runner } from './runner.js';

export async function applySourceChange(runner: Runner, source: SourceRecord, change: MappedChange): Promise<void> {
  await runner.run(applyHookPost, sourceCaller(source), { channelId: source.channelId, input: change });
}

function sourceCaller(source: SourceRecord): Caller {
  const principal: Principal = {
    kind: 'key',
    keyId: source.id,
    name: source.name,
    orgId: source.orgId,
    grants: new Set(['inputs:write']),
    channelIds: new Set([source.channelId]),
  };
  return { principal, source: 'data_source', actor: { type: 'source', id: source.id, name: source.name } };
}
