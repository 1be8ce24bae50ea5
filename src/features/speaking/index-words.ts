// What SayBot says of speech: an outcome, a failure, the free voice standing in, a member's settings, a listing.
import './strings.ts';
export { describeFailure, refusalAfterPaying } from './failure-words.ts';
export { helperOf, seatWords } from './seat-words.ts';
export { describeSettings, fitLines, presetLine } from './listing.ts';
export { fallbackReason, wordOutcome, wordsText, type FallbackCause, type OutcomeAnswer } from './outcome-words.ts';
