/** What the output page exposes to tests (renderer/src/main.ts). */
interface Window {
  __onair?: {
    state(): { frame: number; inputs: Record<string, unknown>; program: { sceneId: string } | null };
    status(): 'connecting' | 'open' | 'closed';
    frames(): number;
  };
}
