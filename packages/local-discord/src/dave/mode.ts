// How the local Discord treats DAVE (end-to-end encryption of voice):
// - 'off': SESSION_DESCRIPTION says dave_protocol_version 0 (transport encryption only);
// - 'offered': version 1 to clients whose IDENTIFY offers it, 0 to the others;
// - 'required': as real Discord since March 2026, a client that does not offer it is closed with 4017.
import type { DaveMode } from '../types.ts';

/** The one switch for every FakeDiscord that does not choose (tests and benchmarks). */
export const DEFAULT_DAVE_MODE: DaveMode = 'required';
