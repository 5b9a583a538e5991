import type { Args } from '../args.js';

/** One CLI command: index.ts lists them, each module exports one as its default. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: Args): Promise<number | void>;
}
