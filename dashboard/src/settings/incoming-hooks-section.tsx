export function IncomingHooksSection({ channelId }: { channelId: string }) {
  return <section data-channel={channelId} />;
}
