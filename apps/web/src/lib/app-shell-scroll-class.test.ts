import { describe, expect, it } from 'vitest';
import { RemoveScroll as library } from 'react-remove-scroll';
import { RemoveScroll } from './app-shell-scroll-class.ts';

describe("the AppShell's scroll class names", () => {
  it('are the class names react-remove-scroll gives the elements it keeps clear of the scroll bar', () => {
    expect(RemoveScroll.classNames).toEqual(library.classNames);
  });
});
