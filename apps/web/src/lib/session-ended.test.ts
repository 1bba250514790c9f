// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { noteSessionEnded, takeSessionEnded } from './session-ended.ts';

describe('session ended note', () => {
  it('is read once, by the sign-out that follows', () => {
    noteSessionEnded('You logged out on every device, this one too.', 'success');
    expect(takeSessionEnded()).toEqual({ message: 'You logged out on every device, this one too.', type: 'success' });
    expect(takeSessionEnded()).toBeNull();
  });

  it('is forgotten after a minute: the session went on (a password changed in this tab)', () => {
    noteSessionEnded('Your session has ended. Sign in again to continue.');
    expect(takeSessionEnded(Date.now() + 61_000)).toBeNull();
  });
});
