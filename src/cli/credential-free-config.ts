import { readFileSync } from 'node:fs';
import { resolveConfig, type Config } from '../config/index.js';
import { configPath, loadCommandConfig } from './context.js';
import type { CommandIo, ParsedArgs } from './command.js';

/**
 * The config for a command that touches only local files (`merge-events`): validated like every
 * config, but without the keys that hold credentials (`api`, `receiver.authorization`), so a
 * cron job running it needs neither the API token nor the receiver credential in its
 * environment, and never loads them. File errors are the usual ones (the normal loader reports
 * them).
 */
export function loadCredentialFreeConfig(args: ParsedArgs, io: CommandIo): Config {
  const path = configPath(args);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return loadCommandConfig(args, io); // throws the loader's own message for a missing or broken file
  }
  return resolveConfig(withoutCredentials(raw), io.env, path);
}

function withoutCredentials(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const { api: _api, ...rest } = raw;
  if (!isObject(rest.receiver)) return rest;
  const { authorization: _authorization, ...receiver } = rest.receiver;
  return { ...rest, receiver };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
