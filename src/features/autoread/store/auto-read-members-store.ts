/** What adding to a bounded list did: added, already there, or refused because the list holds its maximum. */
export type BoundedAddResult = 'added' | 'already' | 'full';

/** What adding a voice to the pool did; 'unknown-voice': a cloned voice no longer in the guild's library. */
export type PoolAddResult = BoundedAddResult | 'unknown-voice';

/** The pool voice a member was given in a guild (voices: distinct). */
export interface MemberPoolVoice {
  userId: string;
  voice: string;
  assignedAt: Date;
}

/** A page of a guild's members' pool voices, oldest assignment first, with how many there are in all. */
export interface MemberPoolVoices {
  members: MemberPoolVoice[];
  total: number;
}
