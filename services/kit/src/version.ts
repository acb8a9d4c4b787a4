import kitPackage from '../package.json' with { type: 'json' };

/** The running version, in every log line, span and metric: the image's SNAPCRACKS_VERSION, else the packages' own. */
export function snapcracksVersion(): string {
  return process.env.SNAPCRACKS_VERSION || kitPackage.version;
}
