/** The part of unzipper (a zip64-capable reader, used only to check the generator's zips) the tests use. */
declare module 'unzipper' {
  interface Entry {
    path: string;
    uncompressedSize: number;
    compressedSize: number;
    crc32: number;
    stream(): NodeJS.ReadableStream & AsyncIterable<Buffer>;
    buffer(): Promise<Buffer>;
  }
  const unzipper: { Open: { file(path: string): Promise<{ files: Entry[] }> } };
  export default unzipper;
}
