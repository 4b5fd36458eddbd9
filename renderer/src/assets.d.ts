/** esbuild's file loader (renderer/build.mjs): importing a font file gives its served, content-hashed URL. */
declare module '*.woff2' {
  const url: string;
  export default url;
}

/** The OGraf graphics' host page, `/render/assets/graphic-host-<hash>.html` (renderer/build.mjs defines it). */
declare const GRAPHIC_HOST_URL: string;
