/** Minimal flag parser: `--name value`, `--flag`, `--name=value`; everything else is positional. */
export interface Args {
  positional: string[];
  flags: Record<string, string | true>;
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    if (eq > 0) {
      flags[a.slice(2, eq)] = a.slice(eq + 1);
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      flags[a.slice(2)] = argv[++i];
    } else {
      flags[a.slice(2)] = true;
    }
  }
  return { positional, flags };
}

export class UsageError extends Error {}

export function str(args: Args, name: string, fallback?: string): string {
  const v = args.flags[name];
  if (typeof v === 'string') return v;
  if (fallback !== undefined) return fallback;
  throw new UsageError(`missing --${name}`);
}

export function bool(args: Args, name: string): boolean {
  return args.flags[name] === true || args.flags[name] === 'true';
}
