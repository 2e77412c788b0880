/** Word lists the world draws its names from. Short on purpose: variety comes from combinations. */
export const FIRST_NAMES = [
  'Anna',
  'Ben',
  'Chloe',
  'Daniel',
  'Ewa',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jakub',
  'Karin',
  'Luca',
  'Marta',
  'Noah',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
  'Ugo',
  'Vera',
  'Wiktor',
  'Zoe',
] as const;

export const LAST_NAMES = [
  'Adler',
  'Berg',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Horvat',
  'Ivanova',
  'Jansen',
  'Kowalska',
  'Larsen',
  'Moreau',
  'Nowak',
  'Ortiz',
  'Peters',
  'Rossi',
  'Silva',
  'Torres',
  'Weber',
] as const;

export const PLACES = [
  { city: 'Warsaw', country: 'PL' },
  { city: 'Berlin', country: 'DE' },
  { city: 'Lisbon', country: 'PT' },
  { city: 'Lyon', country: 'FR' },
  { city: 'Madrid', country: 'ES' },
  { city: 'Milan', country: 'IT' },
  { city: 'Oslo', country: 'NO' },
  { city: 'Vienna', country: 'AT' },
  { city: 'Gdansk', country: 'PL' },
] as const;

export const STREETS = ['Market St', 'Harbour Rd', 'Station Sq', 'Park Ave', 'Old Town 1', 'River Walk', 'Hill St'] as const;

export const VENUE_KINDS = ['Cafe', 'Hotel', 'Gym', 'Library', 'Mall', 'Bistro', 'Hostel', 'Stadium', 'Airport Lounge'] as const;

export const VENUE_ADJECTIVES = ['Blue', 'Central', 'Golden', 'Quiet', 'Sunny', 'North', 'Little', 'Grand', 'Green'] as const;

export const PROJECT_NAMES = ['Hospitality', 'Retail', 'Leisure', 'Transport', 'Campus', 'Events'] as const;

export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pl', 'it', 'pt'] as const;

export const PHONE_PREFIXES = ['+48', '+49', '+351', '+33', '+34', '+39', '+47', '+43'] as const;

export const GENDERS = ['female', 'male', 'other'] as const;
