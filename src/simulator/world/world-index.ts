import type { Account, Project, Venue, World } from './world.js';

/** Raised for an id the world does not know; the HTTP layer answers 404. */
export class UnknownEntityError extends Error {
  constructor(
    readonly entity: 'venue' | 'project' | 'account',
    readonly id: string,
  ) {
    super(`unknown ${entity} ${id}`);
    this.name = 'UnknownEntityError';
  }
}

/** Lookups by id over a world, raising UnknownEntityError for ids that do not exist. */
export class WorldIndex {
  private readonly venues: ReadonlyMap<string, Venue>;
  private readonly projects: ReadonlyMap<string, Project>;
  private readonly accounts: ReadonlyMap<string, Account>;

  constructor(readonly world: World) {
    this.venues = new Map(world.venues.map((v) => [v.id, v]));
    this.projects = new Map(world.projects.map((p) => [p.id, p]));
    this.accounts = new Map(world.accounts.map((a) => [a.id, a]));
  }

  venue(id: string): Venue {
    const venue = this.venues.get(id);
    if (!venue) throw new UnknownEntityError('venue', id);
    return venue;
  }

  project(id: string): Project {
    const project = this.projects.get(id);
    if (!project) throw new UnknownEntityError('project', id);
    return project;
  }

  /** `me` is the account that owns the token. */
  account(id: string): Account {
    const account = id === 'me' ? this.world.me : this.accounts.get(id);
    if (!account) throw new UnknownEntityError('account', id);
    return account;
  }

  findAccount(id: string): Account | undefined {
    return this.accounts.get(id);
  }
}
