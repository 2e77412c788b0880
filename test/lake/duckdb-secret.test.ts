import { describe, expect, it } from 'vitest';
import { duckdbS3Secret } from '../../src/lake/duckdb-secret.js';
import { scrubSecrets } from '../../src/log/index.js';

describe("DuckDB's S3 secret for a lake", () => {
  const target = { bucket: 'venue-lake', prefix: 'prod' };

  it('takes the endpoint as host:port, path style and SSL from the settings, and the resolved key pair', async () => {
    const secret = await duckdbS3Secret(target, {
      endpoint: 'http://127.0.0.1:8080',
      forcePathStyle: true,
      region: 'eu-central-1',
      accessKeyId: 'AKIAEXAMPLELAKE',
      secretAccessKey: 'lake-secret-for-duckdb',
    });
    expect(secret).toEqual({
      keyId: 'AKIAEXAMPLELAKE',
      secret: 'lake-secret-for-duckdb',
      sessionToken: undefined,
      region: 'eu-central-1',
      endpoint: '127.0.0.1:8080',
      urlStyle: 'path',
      useSsl: false,
      scope: 's3://venue-lake/prod',
    });
    // Registered with the scrubber before anything could print it.
    expect(scrubSecrets('key lake-secret-for-duckdb')).not.toContain('lake-secret-for-duckdb');
  });

  it('uses SSL and virtual-host style for AWS itself (no endpoint)', async () => {
    const secret = await duckdbS3Secret(target, { accessKeyId: 'AKIAEXAMPLELAKE', secretAccessKey: 'another-lake-secret' });
    expect({ endpoint: secret.endpoint, urlStyle: secret.urlStyle, useSsl: secret.useSsl }).toEqual({ endpoint: undefined, urlStyle: 'vhost', useSsl: true });
  });
});
