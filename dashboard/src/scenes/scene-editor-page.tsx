/**
 * `#/channels/<channelId>/scenes` (a new scene) and `#/channels/<channelId>/scenes/<sceneId>` (a saved one): the
 * scene editor with its live preview (docs/dashboard.md). A new scene starts from a template or blank and is
 * created only when saved.
 */
import { useEffect, useState } from 'preact/hooks';
import { Problem } from '../components/problem.js';
import { useLoad } from '../components/use-load.js';
import { href } from '../router.js';
import { can } from '../session.js';
import type { Obj } from './draft.js';
import { loadEditorData, type EditorData } from './editor-data.js';
import { OgrafDownload } from './ograf-download.js';
import { SceneEditor } from './scene-editor.js';
import { TemplateChooser, type SceneStart } from './template-chooser.js';

export function SceneEditorPage({ channelId, sceneId }: { channelId: string; sceneId: string | null }) {
  const { data: loaded, error } = useLoad(() => loadEditorData(channelId, sceneId), [channelId, sceneId]);
  // What was loaded for the previous URL is not shown for this one.
  const data = loaded && loaded.channel.id === channelId && (loaded.scene?.id ?? null) === sceneId ? loaded : undefined;
  const [start, setStart] = useState<SceneStart | null>(null);
  useEffect(() => setStart(null), [channelId, sceneId]);
  const writable = can('channels:write');
  const channelName = data?.channel.name ?? channelId;
  const title = sceneId === null ? 'New scene' : `Scene: ${data?.scene?.name ?? sceneId}`;
  return (
    <main id="main" class="page scene-editor" data-channel={channelId} data-scene={sceneId ?? ''}>
      <p class="crumbs">
        <a href={href('channels')}>Channels</a> › <a href={href('channels', channelId, 'live')}>{channelName}</a> ›{' '}
        {sceneId === null ? 'New scene' : 'Edit scene'}
      </p>
      <div class="page-head">
        <h1>{title}</h1>
        {data?.scene && !('graphic' in data.scene.definition) && (
          <OgrafDownload path={`/v1/channels/${channelId}/scenes/${data.scene.id}/ograf`} fileName={data.scene.name} />
        )}
        <a class="push-right" href={href('channels', channelId, 'live')}>
          Back to live view
        </a>
      </div>
      <Problem error={error} />
      {data && <Body data={data} sceneId={sceneId} writable={writable} start={start} onStart={setStart} />}
    </main>
  );
}

function Body({
  data,
  sceneId,
  writable,
  start,
  onStart,
}: {
  data: EditorData;
  sceneId: string | null;
  writable: boolean;
  start: SceneStart | null;
  onStart: (start: SceneStart) => void;
}) {
  const { channel, live, scene } = data;
  if (scene) {
    return (
      <SceneEditor
        key={scene.id}
        channel={channel}
        live={live}
        sceneId={scene.id}
        initialName={scene.name}
        initialDefinition={scene.definition as unknown as Obj}
        initialValid={{ id: scene.id, name: scene.name, definition: scene.definition }}
        writable={writable}
      />
    );
  }
  if (sceneId !== null) return null;
  if (!writable) return <p class="hint">Creating scenes needs the channels:write permission.</p>;
  if (!start) return <TemplateChooser onStart={onStart} />;
  const { template } = start;
  return (
    <SceneEditor
      key="new"
      channel={channel}
      live={live}
      sceneId={null}
      initialName={start.name}
      initialDefinition={start.definition}
      initialValid={template ? { id: 'sc_dryrun', name: start.name, definition: template.definition } : null}
      writable
    />
  );
}
