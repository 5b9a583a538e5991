/** The part of madge (import-cycle finder, run by test/lint.test.ts) the tests use. */
declare module 'madge' {
  interface MadgeResult {
    circular(): string[][];
  }
  function madge(path: string, config: { fileExtensions?: string[]; tsConfig?: string }): Promise<MadgeResult>;
  export default madge;
}
