/**
 * The two names every layer agrees on: the space that always exists and whose users reach every
 * space, and the word that means "every space" in URLs (so no tenant may be called that).
 */
export const SYSTEM_TENANT = 'system';
export const ALL_TENANTS = 'all';
