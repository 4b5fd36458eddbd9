export function SceneEditorPage({ channelId, sceneId }: { channelId: string; sceneId: string | null }) {
  return (
    <main id="main" class="page" data-channel={channelId} data-scene={sceneId ?? ''}>
      <h1>To do</h1>
    </main>
  );
}
