import type { Config } from './schema.js';

const MASK = '***';

/** The resolved config with every secret replaced, for `venue-etl config` and logs. */
export function maskConfig(config: Config): Config {
  return {
    ...config,
    ...(config.api === undefined ? {} : { api: { ...config.api, token: MASK } }),
    receiver: {
      ...config.receiver,
      ...(config.receiver.authorization === undefined ? {} : { authorization: MASK }),
    },
  };
}
