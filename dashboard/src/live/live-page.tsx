export function LivePage({ channelId }: { channelId: string }) {
  return (
    <main id="main" class="page" data-channel={channelId}>
      <h1>To do</h1>
    </main>
  );
}
