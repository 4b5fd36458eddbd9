/** esbuild's file loader (renderer/build.mjs): importing a font file gives its served, content-hashed URL. */
declare module '*.woff2' {
  const url: string;
  export default url;
}
