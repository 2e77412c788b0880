import { describe, expect, it } from 'vitest';
import { apiUrlOf } from '../../src/runner/rate-limit-memory.js';

describe('the API address a rate limit is remembered under', () => {
  it('is origin and path, with no credential in it', () => {
    expect(apiUrlOf({ baseUrl: 'https://api.example.com/v1/', token: 'tok-123456' })).toBe('https://api.example.com/v1/');
    // A user and password never; a credential-looking parameter masked; the token wherever it is.
    expect(apiUrlOf({ baseUrl: 'https://ann:pw@api.example.com/t/tok-123456/?api_key=k1&region=eu', token: 'tok-123456' })).toBe(
      'https://api.example.com/t/***/?api_key=***&region=eu',
    );
  });
});
