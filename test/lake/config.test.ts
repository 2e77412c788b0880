import { describe, expect, it } from 'vitest';
import { ConfigError, maskConfig, resolveConfig } from '../../src/config/index.js';
import { parseS3Target } from '../../src/lake/index.js';
import { scrubSecrets } from '../../src/log/index.js';

function problemsOf(raw: unknown, env: Record<string, string> = {}): { path: string; message: string }[] {
  try {
    resolveConfig(raw, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error instanceof ConfigError ? [...error.problems] : [];
  }
  return [];
}

describe('s3:// targets', () => {
  it('parses bucket and prefix, without slashes at either end', () => {
    expect(parseS3Target('s3://my-bucket')).toEqual({ target: { bucket: 'my-bucket', prefix: '' } });
    expect(parseS3Target('s3://my-bucket/')).toEqual({ target: { bucket: 'my-bucket', prefix: '' } });
    expect(parseS3Target('S3://lake.example/venue-etl/prod/')).toEqual({ target: { bucket: 'lake.example', prefix: 'venue-etl/prod' } });
  });

  it.each([
    ['s3://AKIAEXAMPLE:s3cr3t-value@bucket/x', /must not hold credentials/],
    ['s3://Bad_Bucket/x', /names no valid bucket/],
    ['s3://ab/x', /names no valid bucket/],
    ['s3://bucket//x', /empty part/],
    ['s3://bucket/a/../b', /must not have \. or \.\./],
    ['s3://bucket/a?b', /\?, #/],
    ['s3://bucket/a\u0001b', /control characters/],
    ['/local/folder', /must start with s3:\/\//],
  ])('refuses %s, saying how to fix it and without quoting it', (text, problem) => {
    const parsed = parseS3Target(text);
    expect(parsed).toEqual({ problem: expect.stringMatching(problem) });
    if ('problem' in parsed) expect(parsed.problem).not.toContain('s3cr3t-value');
  });
});

describe('parquet.s3 in the config', () => {
  it('takes endpoint, region and path style, and secrets as ${VARIABLE}s that are masked and scrubbed', () => {
    const secret = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
    const config = resolveConfig(
      {
        parquet: {
          dir: 'data/parquet',
          s3: {
            endpoint: 'http://127.0.0.1:9000',
            region: 'eu-central-1',
            forcePathStyle: true,
            accessKeyId: '${TENANT_A_KEY_ID}',
            secretAccessKey: '${TENANT_A_SECRET}',
          },
        },
      },
      { TENANT_A_KEY_ID: 'AKIAEXAMPLE', TENANT_A_SECRET: secret },
    );
    expect(config.parquet.s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', region: 'eu-central-1', forcePathStyle: true, secretAccessKey: secret });
    expect(JSON.stringify(maskConfig(config))).not.toContain(secret);
    expect(scrubSecrets(`signing with ${secret} failed`)).toBe('signing with *** failed');
  });

  it('refuses a secret key written in the file, without quoting it, and says what to write instead', () => {
    const secret = 'plain-text-secret-in-the-file';
    const problems = problemsOf({ parquet: { s3: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: secret, sessionToken: 'plain-session-token' } } });
    expect(problems.map((p) => p.path).sort()).toEqual(['parquet.s3.secretAccessKey', 'parquet.s3.sessionToken']);
    expect(problems.find((p) => p.path === 'parquet.s3.secretAccessKey')?.message).toMatch(/\$\{AWS_SECRET_ACCESS_KEY\}/);
    expect(JSON.stringify(problems)).not.toContain(secret);
    expect(JSON.stringify(problems)).not.toContain('plain-session-token');
  });

  it('refuses an endpoint with credentials in it, and a key id without its secret', () => {
    const problems = problemsOf({ parquet: { s3: { endpoint: 'http://user:hunter22@127.0.0.1:9000', accessKeyId: '${ID}' } } }, { ID: 'AKIAEXAMPLE' });
    expect(problems.map((p) => p.path).sort()).toEqual(['parquet.s3.endpoint', 'parquet.s3.secretAccessKey']);
    expect(JSON.stringify(problems)).not.toContain('hunter22');
  });

  it('takes a valid s3:// parquet.dir, and refuses a malformed one with the fix', () => {
    expect(problemsOf({ parquet: { dir: 's3://Bad_Bucket/x' } })).toEqual([{ path: 'parquet.dir', message: expect.stringMatching(/names no valid bucket/) }]);
    expect(problemsOf({ parquet: { dir: 's3://lake/venue-etl' } })).toEqual([]);
  });

  it('takes parquet.writer as a short lower-case name, and refuses one that cannot be part of an object name', () => {
    expect(problemsOf({ parquet: { writer: 'tenant-a' } })).toEqual([]);
    for (const writer of ['Tenant', '-a', 'a/b', 'x'.repeat(41), '']) {
      expect(problemsOf({ parquet: { writer } }).map((p) => p.path)).toEqual(['parquet.writer']);
    }
  });
});
