/**
 * Writes to stdout and resolves once the bytes are handed to the OS: main.ts ends with process.exit,
 * which drops pending writes to a pipe (a JSON summary read by another program came out empty).
 */
export function print(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
}
