/** Scale and offset that fit the stage inside the viewport, letterboxed and centred. Pure. */

export interface Fit {
  scale: number;
  x: number;
  y: number;
}

export function fitStage(stageWidth: number, stageHeight: number, viewWidth: number, viewHeight: number): Fit {
  // A hidden host source can report a zero-sized viewport; keep the stage at 1:1 until it has one.
  if (stageWidth <= 0 || stageHeight <= 0 || viewWidth <= 0 || viewHeight <= 0) return { scale: 1, x: 0, y: 0 };
  const scale = Math.min(viewWidth / stageWidth, viewHeight / stageHeight);
  return {
    scale,
    x: (viewWidth - stageWidth * scale) / 2,
    y: (viewHeight - stageHeight * scale) / 2,
  };
}

export function fitTransform(fit: Fit): string {
  return `translate(${fit.x}px, ${fit.y}px) scale(${fit.scale})`;
}
